import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  firstListed,
  type FoldEvent,
  type FoldReport,
  type FoldedTask,
  type Outcome,
  type Provenance as ProvenanceToken,
} from "@crs/domain/rollout";
import {
  LifecycleEventKind,
  Provenance,
  TaskOutcome,
  type LifecycleEventSchema,
  type LifecycleReportSchema,
  type LifecycleTaskSchema,
} from "@crs/contracts/gen/crs/analytics/v1/report_pb";
import { MAX_ROWS } from "./listing-caps.js";
import { int64 } from "./proto-values.js";

/** The proto enum of each domain outcome token. */
export const OUTCOME_ENUM: Record<Outcome, TaskOutcome> = {
  complete: TaskOutcome.COMPLETE,
  aborted: TaskOutcome.ABORTED,
  superseded: TaskOutcome.SUPERSEDED,
  process_death: TaskOutcome.PROCESS_DEATH,
  live: TaskOutcome.LIVE,
};

/** The proto enum of each domain provenance token. */
export const PROVENANCE_ENUM: Record<ProvenanceToken, Provenance> = {
  observed: Provenance.OBSERVED,
  synthesized: Provenance.SYNTHESIZED,
};

// Orphans are starts and terminals; the fold's other inputs never become events of the report.
const EVENT_KIND: Partial<Record<FoldEvent["kind"], LifecycleEventKind>> = {
  task_started: LifecycleEventKind.TASK_STARTED,
  task_complete: LifecycleEventKind.TASK_COMPLETE,
  turn_aborted: LifecycleEventKind.TURN_ABORTED,
};

function eventMessage(e: FoldEvent): MessageInitShape<typeof LifecycleEventSchema> {
  return {
    kind: EVENT_KIND[e.kind] ?? LifecycleEventKind.UNSPECIFIED,
    turnId: e.turnId,
    timestamp: e.timestamp,
    reason: e.reason,
    durationMs: int64(e.durationMs),
  };
}

function taskMessage(t: FoldedTask): MessageInitShape<typeof LifecycleTaskSchema> {
  return {
    turnId: t.turnId,
    startedAt: t.startedAt,
    endedAt: t.endedAt,
    outcome: OUTCOME_ENUM[t.outcome],
    provenance: PROVENANCE_ENUM[t.provenance],
    reason: t.reason,
    durationMs: int64(t.durationMs),
    trailingEmptyAbort: t.trailingEmptyAbort,
    implicit: t.implicit,
    errorClass: t.errorClass ?? "",
    repaired: t.repaired,
    rolledBack: t.rolledBack,
  };
}

/** The proto form of one rollout's lifecycle fold, each list capped at {@link MAX_ROWS}. */
export function lifecycleMessage(r: FoldReport): MessageInitShape<typeof LifecycleReportSchema> {
  const tasks = firstListed(r.tasks, MAX_ROWS);
  const orphans = firstListed(r.orphans, MAX_ROWS);
  const reused = firstListed(r.reused, MAX_ROWS);
  const multiply = firstListed(r.multiplyTerminated, MAX_ROWS);
  return {
    tasks: tasks.items.map(taskMessage),
    tasksTruncated: tasks.truncated,
    substantiveCompleted: r.substantiveCompleted,
    completedWithTrailingAbort: r.completedWithTrailingAbort,
    orphans: orphans.items.map(eventMessage),
    orphansTruncated: orphans.truncated,
    reused: [...reused.items],
    reusedTruncated: reused.truncated,
    multiplyTerminated: [...multiply.items],
    multiplyTerminatedTruncated: multiply.truncated,
  };
}
