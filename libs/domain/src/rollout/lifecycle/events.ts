import type { RolloutRecord } from "../decode/record.js";
import type { FoldEvent } from "./types.js";

/** The fold's view of one record, or null for records the fold does not read. */
export function foldEventOf(record: RolloutRecord): FoldEvent | null {
  const base = { timestamp: record.timestamp, tsMs: record.tsMs, turnId: "", reason: "", durationMs: null };
  switch (record.kind) {
    case "task_started":
      return { ...base, kind: "task_started", turnId: record.turnId };
    case "task_complete":
      return { ...base, kind: "task_complete", turnId: record.turnId, durationMs: record.durationMs };
    case "turn_aborted":
      return { ...base, kind: "turn_aborted", turnId: record.turnId, reason: record.reason, durationMs: record.durationMs };
    case "thread_rolled_back":
      return { ...base, kind: "thread_rolled_back", numTurns: record.numTurns };
    case "tool_call":
      return { ...base, kind: "tool_call" };
    default:
      return null;
  }
}

/** The fold events of a rollout's records, in file order. */
export function foldEventsOf(records: readonly RolloutRecord[]): FoldEvent[] {
  const out: FoldEvent[] = [];
  for (const r of records) {
    const e = foldEventOf(r);
    if (e !== null) out.push(e);
  }
  return out;
}
