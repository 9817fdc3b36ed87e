/** How a task ended: observed terminals first, then the synthesized ones. */
export type Outcome = "complete" | "aborted" | "superseded" | "process_death" | "live";

/** Every outcome, in report order. */
export const OUTCOMES: readonly Outcome[] = ["complete", "aborted", "superseded", "process_death", "live"];

/** Whether a terminal was read from the rollout or inferred by the fold. */
export type Provenance = "observed" | "synthesized";

/** Closed vocabulary for a single tool call's result. */
export type ToolClass =
  | "ok"
  | "expected_negative"
  | "control_exit"
  | "failure"
  | "timeout"
  | "missing_result"
  | "malformed_envelope"
  | "interrupted"
  | "live_tail";

/** Every tool class, in report order. */
export const TOOL_CLASSES: readonly ToolClass[] = [
  "ok",
  "expected_negative",
  "control_exit",
  "failure",
  "timeout",
  "missing_result",
  "malformed_envelope",
  "interrupted",
  "live_tail",
];

/** True only for the classes that represent a genuine failed call. */
export function countsAsFailure(cls: ToolClass): boolean {
  return cls === "failure" || cls === "timeout";
}

/** How strongly a classification is backed by evidence. */
export type Confidence = "observed" | "assumed" | "inferred";

/** Reasons attached to synthesized terminals. */
export const REASON_STALE = "rollout_stale_no_terminal_observed";
/** Reason for a final open task in a rollout that may still be written. */
export const REASON_FRESH = "rollout_fresh_task_may_still_be_running";
/** Prefix of the reason on a task closed by a later start. */
export const REASON_SUPERSEDED_PREFIX = "superseded_by_turn:";
/** Reason on an implicit task closed by the next turn (user input or an explicit start). */
export const REASON_IMPLICIT_NEXT_TURN = "implicit_next_turn";
/** Prefix of the reason on a task ended by an error event (`error:<class>`). */
export const REASON_ERROR_PREFIX = "error:";
/** Prefix of the id given to an implicit task (`implicit:<n>`, n counting from 1 in file order). */
export const IMPLICIT_TURN_PREFIX = "implicit:";

/** Bound on a command head, in UTF-8 bytes. */
export const HEAD_MAX_BYTES = 256;
/** Gap above which waiting is idle rather than model time. */
export const STALL_THRESHOLD_MS = 300_000;
/** Minimum signature repeats to report a repeat failure. */
export const REPEAT_FAILURE_MIN = 3;
/** Minimum signature repeats to report a success loop. */
export const SUCCESS_LOOP_MIN = 8;
/** Minimum edits of one path to report churn. */
export const EDIT_CHURN_MIN = 5;
/** Longest abort still counted as a trailing empty abort. */
export const TRAILING_ABORT_MAX_MS = 2_000;
/** Count at which a corpus-wide pattern becomes a finding. */
export const FINDING_FLOOR = 25;
/** Ranked list length used when none is given. */
export const DEFAULT_TOP_N = 10;
/** Critical-path rows kept on an outlier. */
export const OUTLIER_CONTRIBUTORS = 3;

/** Health schema token kept for consumers of the reference report. */
export const HEALTH_SCHEMA = "fak-codex-turn-health/2";
/** Token budget at which compaction is expected. */
export const COMPACTION_BUDGET = 96_000;
/** Occupancy below which a compaction is premature. */
export const PREMATURE_COMPACTION_LT = 40_000;
/** Inclusive near-budget band around the compaction budget. */
export const NEAR_BUDGET_LOW = 81_600;
/** Upper edge of the near-budget band. */
export const NEAR_BUDGET_HIGH = 105_600;
/** Occupancy at or above which a compaction is near the context window. */
export const NEAR_WINDOW_MIN = 200_000;
/** Guard-refused turns that make a refusal loop. */
export const REFUSAL_LOOP_MIN = 3;
/** Turns a session needs before inflation is judged. */
export const INFLATION_MIN_TURNS = 5;
/** Zero-tool share at or above which a session is inflated. */
export const INFLATION_RATIO = 0.5;
/** Zero-tool share above which the corpus is flagged. */
export const HIGH_ZERO_TOOL_RATE = 0.2;
