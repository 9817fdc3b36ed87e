import type { RolloutRecord } from "../decode/record.js";
import type { FoldEvent } from "./types.js";

// Built as literals with a fixed member order (no spreads): this runs once per record of a scan.
function event(
  record: RolloutRecord,
  kind: FoldEvent["kind"],
  turnId: string,
  reason: string,
  durationMs: number | null,
  seq: number,
): FoldEvent {
  return { timestamp: record.timestamp, tsMs: record.tsMs, turnId, reason, durationMs, kind, seq };
}

/** The fold's view of the record at position `seq`, or null for records the fold does not read. */
export function foldEventOf(record: RolloutRecord, seq: number): FoldEvent | null {
  switch (record.kind) {
    case "task_started":
      return event(record, "task_started", record.turnId, "", null, seq);
    case "task_complete":
      return event(record, "task_complete", record.turnId, record.reason, record.durationMs, seq);
    case "turn_aborted":
      return event(record, "turn_aborted", record.turnId, record.reason, record.durationMs, seq);
    case "thread_rolled_back": {
      const { timestamp, tsMs, numTurns } = record;
      return { timestamp, tsMs, turnId: "", reason: "", durationMs: null, kind: "thread_rolled_back", numTurns, seq };
    }
    case "tool_call":
      return event(record, "tool_call", "", "", null, seq);
    case "user_message":
      return event(record, "user_turn", "", "", null, seq);
    case "agent_message":
      // An empty message is not output (the producer's own tracker ignores it too).
      return record.category === "silent" ? null : event(record, "agent_output", "", "", null, seq);
    case "model_output":
      return event(record, "agent_output", "", "", null, seq);
    case "compacted":
      return event(record, "compacted", "", "", null, seq);
    case "turn_error": {
      if (!record.affectsTurn) return null;
      const { timestamp, tsMs, errorClass } = record;
      return { timestamp, tsMs, turnId: "", reason: "", durationMs: null, kind: "turn_error", errorClass, seq };
    }
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
    const e = foldEventOf(r, seq);
    if (e !== null) out.push(e);
  });
  return out;
}
