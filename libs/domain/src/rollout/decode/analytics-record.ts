import type { RecordKind, RolloutRecord } from "./record.js";

// The records the analytics timeline is made of: lifecycle events, calls and their outputs, token
// counts, compactions and goal continuations. Messages, reasoning, turn context and user input
// are written around them and are not read into it.
const ANALYTICS_KINDS: ReadonlySet<RecordKind> = new Set<RecordKind>([
  "task_started",
  "task_complete",
  "turn_aborted",
  "tool_call",
  "tool_output",
  "token_count",
  "compacted",
  "goal_continuation",
]);

/** Whether a record is one of the analytics timeline's. */
export function isAnalyticsRecord(r: RolloutRecord): boolean {
  return ANALYTICS_KINDS.has(r.kind);
}
