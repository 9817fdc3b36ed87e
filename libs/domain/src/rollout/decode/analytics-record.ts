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

// Of those, the ones that only mark the timeline (and anchor a window whose start was untimed):
// a compaction or a goal continuation is no work of the model's and ends no gap.
const MARKERS: ReadonlySet<RecordKind> = new Set<RecordKind>(["compacted", "goal_continuation"]);

/** Whether a record is one of the analytics timeline's. */
export function isAnalyticsRecord(r: RolloutRecord): boolean {
  return ANALYTICS_KINDS.has(r.kind);
}

/** Whether a record ends a gap of the time split: an analytics record that is no mere marker. */
export function endsTimelineGap(r: RolloutRecord): boolean {
  return ANALYTICS_KINDS.has(r.kind) && !MARKERS.has(r.kind);
}
