import type { MessageInitShape } from "@bufbuild/protobuf";
import type {
  Behavior,
  CallOutcome,
  Confidence as ConfidenceToken,
  RolloutAnalytics,
  RolloutMeta,
  SigRow,
  TaskAnalytics,
  ToolClass as ClassToken,
  TtftSource as TtftToken,
} from "@crs/domain/rollout";
import {
  Confidence,
  ToolClass,
  TtftSource,
  type BehaviorSchema,
  type CallOutcomeSchema,
  type RolloutAnalyticsSchema,
  type RolloutMetaSchema,
  type SigRowSchema,
  type TaskAnalyticsSchema,
} from "@crs/contracts/gen/crs/analytics/v1/report_pb";
import { countMap, int64 } from "./proto-values.js";
import { OUTCOME_ENUM, PROVENANCE_ENUM } from "./rollout-lifecycle-mapper.js";

/** The proto enum of each domain tool-class token. */
export const CLASS_ENUM: Record<ClassToken, ToolClass> = {
  ok: ToolClass.OK,
  expected_negative: ToolClass.EXPECTED_NEGATIVE,
  control_exit: ToolClass.CONTROL_EXIT,
  failure: ToolClass.FAILURE,
  timeout: ToolClass.TIMEOUT,
  missing_result: ToolClass.MISSING_RESULT,
  malformed_envelope: ToolClass.MALFORMED_ENVELOPE,
  interrupted: ToolClass.INTERRUPTED,
  live_tail: ToolClass.LIVE_TAIL,
};

const TTFT_SOURCE_ENUM: Record<TtftToken, TtftSource> = {
  producer: TtftSource.PRODUCER,
  first_model_record: TtftSource.FIRST_MODEL_RECORD,
};

const CONFIDENCE_ENUM: Record<ConfidenceToken, Confidence> = {
  observed: Confidence.OBSERVED,
  assumed: Confidence.ASSUMED,
  inferred: Confidence.INFERRED,
};

/** The proto form of a rollout's identity. */
export function metaMessage(m: RolloutMeta): MessageInitShape<typeof RolloutMetaSchema> {
  return {
    rolloutId: m.rolloutId,
    provider: m.provider,
    cliVersion: m.cliVersion,
    cwd: m.cwd,
    originator: m.originator,
    source: m.source,
    threadSource: m.threadSource,
  };
}

function taskMessage(t: TaskAnalytics): MessageInitShape<typeof TaskAnalyticsSchema> {
  return {
    turnId: t.turnId,
    outcome: OUTCOME_ENUM[t.outcome],
    provenance: PROVENANCE_ENUM[t.provenance],
    wallMs: int64(t.wallMs),
    recordedMs: int64(t.recordedMs),
    ttftMs: int64(t.ttftMs),
    toolMs: int64(t.toolMs),
    waitMs: int64(t.waitMs),
    modelMs: int64(t.modelMs),
    idleMs: int64(t.idleMs),
    toolCalls: int64(t.toolCalls),
    compactions: int64(t.compactions),
    idleGaps: int64(t.idleGaps),
    classes: countMap(t.classes),
    critical: t.critical.map((c) => ({ category: c.category, ms: int64(c.ms) })),
    trailingEmptyAbort: t.trailingEmptyAbort,
    implicit: t.implicit,
    ttftSource: t.ttftSource === null ? TtftSource.UNSPECIFIED : TTFT_SOURCE_ENUM[t.ttftSource],
    rolledBack: t.rolledBack,
  };
}

function outcomeMessage(o: CallOutcome): MessageInitShape<typeof CallOutcomeSchema> {
  return {
    turnId: o.turnId,
    tool: o.tool,
    toolClass: CLASS_ENUM[o.cls],
    reason: o.reason,
    confidence: CONFIDENCE_ENUM[o.confidence],
    spanMs: int64(o.spanMs),
    sig: o.sig,
  };
}

function sigRow(r: SigRow): MessageInitShape<typeof SigRowSchema> {
  return { sig: r.sig, tool: r.tool, count: int64(r.count) };
}

function behaviorMessage(b: Behavior): MessageInitShape<typeof BehaviorSchema> {
  return {
    timeoutKills: int64(b.timeoutKills),
    sleepPolls: int64(b.sleepPolls),
    stallGaps: int64(b.stallGaps),
    maxGapS: b.maxGapS,
    repeatFailures: b.repeatFailures.map(sigRow),
    maxRepeatFailure: int64(b.maxRepeatFailure),
    successLoops: b.successLoops.map(sigRow),
    maxSuccessLoop: int64(b.maxSuccessLoop),
    editChurn: b.editChurn.map((c) => ({ path: c.file, count: int64(c.count) })),
    maxEditChurn: int64(b.maxEditChurn),
  };
}

/**
 * Most per-call outcomes one AnalyzeRollout response lists. A response runs to about 7.5% of its
 * upload, almost all of it outcomes, so uncapped a 215 MB upload would answer past the 16 MiB
 * message limit; 10,000 rows are about 1 MB, and as much again in `report_json`.
 */
export const MAX_OUTCOMES = 10_000;

/** The proto form of one rollout's analytics, outcomes capped at {@link MAX_OUTCOMES}. */
export function analyticsMessage(a: RolloutAnalytics): MessageInitShape<typeof RolloutAnalyticsSchema> {
  return {
    meta: metaMessage(a.meta),
    tasks: a.tasks.map(taskMessage),
    calls: int64(a.calls),
    outcomes: a.outcomes.slice(0, MAX_OUTCOMES).map(outcomeMessage),
    outcomesTruncated: a.outcomesTruncated || a.outcomes.length > MAX_OUTCOMES,
    behavior: behaviorMessage(a.behavior),
    substantiveCompleted: a.substantiveCompleted,
    completedWithTrailingAbort: a.completedWithTrailingAbort,
  };
}
