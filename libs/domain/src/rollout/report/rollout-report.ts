import type { CallOutcome, RolloutAnalytics, TaskAnalytics } from "../analytics/types.js";
import type { RolloutMeta } from "../decode/record.js";
import type { FoldEvent, FoldReport, FoldedTask } from "../lifecycle/types.js";
import { firstListed, type ListingOptions } from "./listing.js";

type Json = Record<string, unknown>;

// Mirrors the reference's omit-empty encoding: zero, "", false, null and empty lists drop out.
function compact(o: Json): Json {
  return Object.fromEntries(
    Object.entries(o).filter(
      ([, v]) => !(v === undefined || v === null || v === "" || v === 0 || v === false || (Array.isArray(v) && v.length === 0)),
    ),
  );
}

function eventJson(e: FoldEvent): Json {
  return compact({ kind: e.kind, turn_id: e.turnId, timestamp: e.timestamp, reason: e.reason, duration_ms: e.durationMs });
}

function taskJson(t: FoldedTask): Json {
  return {
    turn_id: t.turnId,
    ...compact({ started_at: t.startedAt, ended_at: t.endedAt }),
    outcome: t.outcome,
    provenance: t.provenance,
    ...compact({
      reason: t.reason,
      duration_ms: t.durationMs,
      trailing_empty_abort: t.trailingEmptyAbort,
      repaired: t.repaired,
      rolled_back: t.rolledBack,
      implicit: t.implicit,
      error_class: t.errorClass,
    }),
  };
}

/**
 * A folded rollout in the reference's lifecycle JSON shape (plus `repaired`, `rolled_back`,
 * `implicit`, `error_class`, and a `<list>_truncated` key for each list cut at `maxRows`).
 */
export function foldReportJson(r: FoldReport, options: ListingOptions = {}): Json {
  const tasks = firstListed(r.tasks, options.maxRows);
  const orphans = firstListed(r.orphans, options.maxRows);
  const reused = firstListed(r.reused, options.maxRows);
  const multiply = firstListed(r.multiplyTerminated, options.maxRows);
  return {
    tasks: tasks.items.map(taskJson),
    ...compact({
      tasks_truncated: tasks.truncated,
      substantive_completed: r.substantiveCompleted,
      completed_with_trailing_abort: r.completedWithTrailingAbort,
      orphans: orphans.items.map(eventJson),
      orphans_truncated: orphans.truncated,
      reused: [...reused.items],
      reused_truncated: reused.truncated,
      multiply_terminated: [...multiply.items],
      multiply_terminated_truncated: multiply.truncated,
    }),
  };
}

/** Rollout identity in the reference's JSON shape. */
export function metaJson(m: RolloutMeta): Json {
  return compact({
    rollout_id: m.rolloutId,
    provider: m.provider,
    cli_version: m.cliVersion,
    cwd: m.cwd,
    originator: m.originator,
    source: m.source,
    thread_source: m.threadSource,
    parent_thread_id: m.parentThreadId,
  });
}

function taskAnalyticsJson(t: TaskAnalytics, maxCritical: number | undefined): Json {
  const critical = firstListed(t.critical, maxCritical);
  return {
    turn_id: t.turnId,
    outcome: t.outcome,
    provenance: t.provenance,
    ...compact({ wall_ms: t.wallMs, recorded_ms: t.recordedMs }),
    ttft_ms: t.ttftMs,
    ...compact({ ttft_source: t.ttftSource }),
    tool_ms: t.toolMs,
    wait_ms: t.waitMs,
    model_ms: t.modelMs,
    idle_ms: t.idleMs,
    tool_calls: t.toolCalls,
    ...compact({
      compactions: t.compactions,
      idle_gaps: t.idleGaps,
      classes: Object.keys(t.classes).length > 0 ? t.classes : undefined,
      critical: [...critical.items],
      critical_truncated: critical.truncated,
      trailing_empty_abort: t.trailingEmptyAbort,
      rolled_back: t.rolledBack,
      implicit: t.implicit,
    }),
  };
}

function outcomeJson(o: CallOutcome): Json {
  return {
    ...compact({ turn_id: o.turnId }),
    tool: o.tool,
    class: o.cls,
    reason: o.reason,
    confidence: o.confidence,
    ...compact({ span_ms: o.spanMs, sig: o.sig }),
  };
}

/** Options of {@link rolloutAnalyticsJson}. */
export interface RolloutAnalyticsJsonOptions extends ListingOptions {
  /** Most per-call outcomes listed; beyond it the list is cut and `outcomes_truncated` is set. */
  readonly maxOutcomes?: number;
  /** Most critical-path rows listed per task; beyond it the rows are cut and the task's `critical_truncated` is set. */
  readonly maxCritical?: number;
}

/**
 * One rollout's analytics in the reference's JSON shape, plus `outcomes_truncated`, a
 * `<list>_truncated` key for each list cut at `maxRows` (tasks and the behaviour rows) and a task's
 * `critical_truncated` when its rows are cut at `maxCritical`.
 */
export function rolloutAnalyticsJson(a: RolloutAnalytics, options: RolloutAnalyticsJsonOptions = {}): Json {
  const b = a.behavior;
  const outcomes = firstListed(a.outcomes, options.maxOutcomes);
  const tasks = firstListed(a.tasks, options.maxRows);
  const repeatFailures = firstListed(b.repeatFailures, options.maxRows);
  const successLoops = firstListed(b.successLoops, options.maxRows);
  const editChurn = firstListed(b.editChurn, options.maxRows);
  return {
    meta: metaJson(a.meta),
    tasks: tasks.items.map((t) => taskAnalyticsJson(t, options.maxCritical)),
    ...compact({ tasks_truncated: tasks.truncated }),
    calls: a.calls,
    ...compact({ outcomes: outcomes.items.map(outcomeJson), outcomes_truncated: a.outcomesTruncated || outcomes.truncated }),
    behavior: {
      timeout_kills: b.timeoutKills,
      sleep_polls: b.sleepPolls,
      stall_gaps: b.stallGaps,
      max_gap_s: b.maxGapS,
      ...compact({ repeat_failures: [...repeatFailures.items], repeat_failures_truncated: repeatFailures.truncated }),
      max_repeat_failure: b.maxRepeatFailure,
      ...compact({ success_loops: [...successLoops.items], success_loops_truncated: successLoops.truncated }),
      max_success_loop: b.maxSuccessLoop,
      ...compact({ edit_churn: [...editChurn.items], edit_churn_truncated: editChurn.truncated }),
      max_edit_churn: b.maxEditChurn,
    },
    ...compact({ substantive_completed: a.substantiveCompleted, completed_with_trailing_abort: a.completedWithTrailingAbort }),
  };
}
