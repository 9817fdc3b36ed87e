import { criticalPath, splitTasks } from "../critical-path.js";
import { EMPTY_META } from "../decode/meta.js";
import type { RolloutMeta, RolloutRecord } from "../decode/record.js";
import { detectBehavior } from "../detectors/behavior.js";
import { foldEventsOf } from "../lifecycle/events.js";
import { fold } from "../lifecycle/fold.js";
import type { FoldReport } from "../lifecycle/types.js";
import type { ToolClass } from "../vocabulary.js";
import { attributeRecords } from "./attribution.js";
import { joinCalls } from "./calls.js";
import { postToolSpans } from "./post-tool.js";
import type { CallOutcome, RolloutAnalytics, TaskAnalytics } from "./types.js";

/** Inputs of {@link analyzeRollout}. */
export interface AnalyzeInput {
  readonly meta: RolloutMeta | null;
  readonly records: readonly RolloutRecord[];
  /** Whether the rollout may still be written; decided by the caller. */
  readonly fresh: boolean;
}

function producerTtft(records: readonly RolloutRecord[], taskOf: Int32Array, report: FoldReport): Map<number, number> {
  // A keyed completion belongs to the turn it names, which need not be the one it sits in
  // (a late completion of a superseded turn); an unkeyed one to the turn it sits in.
  const named = new Map<string, number>();
  report.tasks.forEach((t, i) => {
    if (!t.implicit && !named.has(t.turnId)) named.set(t.turnId, i);
  });
  const out = new Map<number, number>();
  records.forEach((r, i) => {
    if (r.kind !== "task_complete" || r.ttftMs === null) return;
    const t = r.turnId === "" ? (taskOf[i] ?? -1) : (named.get(r.turnId) ?? -1);
    if (t >= 0 && !out.has(t)) out.set(t, r.ttftMs);
  });
  return out;
}

/** Folds, joins, splits and runs the detectors over one rollout's records. */
export function analyzeRollout(input: AnalyzeInput): RolloutAnalytics {
  const { records } = input;
  const lifecycle = fold(foldEventsOf(records), { fresh: input.fresh });
  const taskOf = attributeRecords(records, lifecycle);
  const joined = joinCalls(records, taskOf, lifecycle);
  const splits = splitTasks({ records, taskOf, report: lifecycle, calls: joined.calls });
  const ttft = producerTtft(records, taskOf, lifecycle);
  const classes = lifecycle.tasks.map(() => new Map<ToolClass, number>());
  for (const c of joined.calls) {
    const m = classes[c.task];
    if (m !== undefined) m.set(c.cls, (m.get(c.cls) ?? 0) + 1);
  }
  const tasks: TaskAnalytics[] = lifecycle.tasks.map((t, i) => {
    const s = splits[i];
    const produced = ttft.get(i);
    const first = s?.firstModelMs ?? null;
    return {
      turnId: t.turnId,
      outcome: t.outcome,
      provenance: t.provenance,
      wallMs: s?.wallMs ?? 0,
      recordedMs: t.provenance === "observed" ? t.durationMs : null,
      ttftMs: produced ?? first ?? -1,
      ttftSource: produced !== undefined ? "producer" : first !== null ? "first_model_record" : null,
      toolMs: s?.toolMs ?? 0,
      waitMs: s?.waitMs ?? 0,
      modelMs: s?.modelMs ?? 0,
      idleMs: s?.idleMs ?? 0,
      toolCalls: t.toolCalls,
      compactions: s?.compactions ?? 0,
      idleGaps: s?.idleGaps ?? 0,
      classes: Object.fromEntries([...(classes[i] ?? new Map<ToolClass, number>()).entries()].sort(([a], [b]) => (a < b ? -1 : 1))),
      critical: s === undefined ? [] : criticalPath(s),
      trailingEmptyAbort: t.trailingEmptyAbort,
      rolledBack: t.rolledBack,
      implicit: t.implicit,
    };
  });
  const outcomes: CallOutcome[] = joined.calls.map((c) => ({
    turnId: lifecycle.tasks[c.task]?.turnId ?? "",
    tool: c.tool,
    cls: c.cls,
    reason: c.reason,
    confidence: c.confidence,
    spanMs: c.spanMs,
    sig: c.sig,
  }));
  return {
    meta: input.meta ?? EMPTY_META,
    lifecycle,
    tasks,
    calls: joined.calls.length,
    outcomes,
    unmatchedOutputs: joined.unmatchedOutputs,
    goalContinuations: records.filter((r) => r.kind === "goal_continuation").length,
    behavior: detectBehavior(joined.calls, splits),
    postTool: postToolSpans(records, joined.calls),
    substantiveCompleted: lifecycle.substantiveCompleted,
    completedWithTrailingAbort: lifecycle.completedWithTrailingAbort,
  };
}
