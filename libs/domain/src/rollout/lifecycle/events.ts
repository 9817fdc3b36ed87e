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
    case "user_message":
      return { ...base, kind: "user_turn" };
    case "agent_message":
      // An empty message is not output (the producer's own tracker ignores it too).
      return record.category === "silent" ? null : { ...base, kind: "agent_output" };
    case "model_output":
      return { ...base, kind: "agent_output" };
    case "compacted":
      return { ...base, kind: "compacted" };
    case "turn_error":
      return record.affectsTurn ? { ...base, kind: "turn_error", errorClass: record.errorClass } : null;
    default:
      return null;
  }
}

/**
 * The fold events of a rollout's records, in file order, each placed by its record position.
 * User input is read from user_message events; only a rollout with none (the pre-wrapper layout
 * wrote response items alone) reads it from user message items, which would otherwise count twice.
 */
export function foldEventsOf(records: readonly RolloutRecord[]): FoldEvent[] {
  const itemsSpeak = !records.some((r) => r.kind === "user_message" && r.source === "event");
  const out: FoldEvent[] = [];
  records.forEach((r, seq) => {
    if (r.kind === "user_message" && r.source === "item" && !itemsSpeak) return;
    const e = foldEventOf(r);
    if (e !== null) out.push({ ...e, seq });
  });
  return out;
}
