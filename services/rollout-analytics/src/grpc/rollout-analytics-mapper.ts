import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  firstListed,
  type Behavior,
  type CallOutcome,
  type Confidence as ConfidenceToken,
  type RolloutAnalytics,
  type RolloutMeta,
  type SigRow,
  type TaskAnalytics,
  type ToolClass as ClassToken,
  type TtftSource as TtftToken,
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
import { MAX_CRITICAL, MAX_OUTCOMES, MAX_ROWS } from "./listing-caps.js";
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
  const critical = firstListed(t.critical, MAX_CRITICAL);
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
    critical: critical.items.map((c) => ({ category: c.category, ms: int64(c.ms) })),
    criticalTruncated: critical.truncated,
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
  const repeatFailures = firstListed(b.repeatFailures, MAX_ROWS);
  const successLoops = firstListed(b.successLoops, MAX_ROWS);
  const editChurn = firstListed(b.editChurn, MAX_ROWS);
  return {
    timeoutKills: int64(b.timeoutKills),
    sleepPolls: int64(b.sleepPolls),
    stallGaps: int64(b.stallGaps),
    maxGapS: b.maxGapS,
    repeatFailures: repeatFailures.items.map(sigRow),
    repeatFailuresTruncated: repeatFailures.truncated,
    maxRepeatFailure: int64(b.maxRepeatFailure),
    successLoops: successLoops.items.map(sigRow),
    successLoopsTruncated: successLoops.truncated,
    maxSuccessLoop: int64(b.maxSuccessLoop),
    editChurn: editChurn.items.map((c) => ({ path: c.file, count: int64(c.count) })),
    editChurnTruncated: editChurn.truncated,
    maxEditChurn: int64(b.maxEditChurn),
  };
}

/**
 * The proto form of one rollout's analytics, outcomes capped at {@link MAX_OUTCOMES}, tasks and rows
 * at {@link MAX_ROWS} and each task's critical path at {@link MAX_CRITICAL}.
 */
export function analyticsMessage(a: RolloutAnalytics): MessageInitShape<typeof RolloutAnalyticsSchema> {
  const tasks = firstListed(a.tasks, MAX_ROWS);
  const outcomes = firstListed(a.outcomes, MAX_OUTCOMES);
  return {
    meta: metaMessage(a.meta),
    tasks: tasks.items.map(taskMessage),
    tasksTruncated: tasks.truncated,
    calls: int64(a.calls),
    outcomes: outcomes.items.map(outcomeMessage),
    outcomesTruncated: a.outcomesTruncated || outcomes.truncated,
    behavior: behaviorMessage(a.behavior),
    substantiveCompleted: a.substantiveCompleted,
    completedWithTrailingAbort: a.completedWithTrailingAbort,
  };
}
