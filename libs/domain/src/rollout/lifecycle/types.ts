import type { TurnErrorClass } from "../turn-error.js";
import type { Outcome, Provenance } from "../vocabulary.js";

/**
 * Kinds the fold reads: the three lifecycle kinds, the facts that qualify them, and the
 * evidence of turns written without a start (user input, agent output, compaction, errors).
 */
export type FoldEventKind =
  | "task_started"
  | "task_complete"
  | "turn_aborted"
  | "thread_rolled_back"
  | "tool_call"
  | "user_turn"
  | "agent_output"
  | "compacted"
  | "turn_error";

/** One input to the lifecycle fold. */
export interface FoldEvent {
  readonly kind: FoldEventKind;
  /** Trimmed turn id ("" when absent). */
  readonly turnId: string;
  /** The line's timestamp text, kept verbatim. */
  readonly timestamp: string;
  readonly tsMs: number | null;
  /** Terminal reason as written (`interrupted`, `replaced`, …). */
  readonly reason: string;
  readonly durationMs: number | null;
  /** Turns dropped by a `thread_rolled_back`. */
  readonly numTurns?: number;
  /** Class of a `turn_error` that ends the turn it happens in (errors that do not are not fold events). */
  readonly errorClass?: TurnErrorClass;
  /** Position of the source record in the rollout, so implicit turns can be placed. */
  readonly seq?: number;
}

/** One started task with exactly one terminal. */
export interface FoldedTask {
  readonly turnId: string;
  readonly startedAt: string;
  readonly startMs: number | null;
  readonly endedAt: string;
  readonly endMs: number | null;
  readonly outcome: Outcome;
  readonly provenance: Provenance;
  readonly reason: string;
  readonly durationMs: number | null;
  /** Tool calls positioned inside the task. */
  readonly toolCalls: number;
  /** True when a synthesized supersede was later replaced by an observed terminal. */
  readonly repaired: boolean;
  /** True when a later `thread_rolled_back` dropped this finished task. */
  readonly rolledBack: boolean;
  readonly trailingEmptyAbort: boolean;
  /** True for a turn opened by user input or agent output with no start written (id `implicit:<n>`). */
  readonly implicit: boolean;
  /** Position (`seq`) of the event that opened an implicit task; null for explicit tasks or unplaced events. */
  readonly openedAt: number | null;
  /** Class of the error event that ended the task, when one did. */
  readonly errorClass: TurnErrorClass | null;
}

/** The fold's answer for one rollout. */
export interface FoldReport {
  readonly tasks: readonly FoldedTask[];
  /** Terminals with no task to close, and starts with no id. */
  readonly orphans: readonly FoldEvent[];
  /** Ids started more than once (later starts ignored). */
  readonly reused: readonly string[];
  /** Ids given a second observed terminal (the first stays). */
  readonly multiplyTerminated: readonly string[];
  readonly substantiveCompleted: boolean;
  readonly completedWithTrailingAbort: boolean;
}

/** Inputs of the fold besides the events. */
export interface FoldOptions {
  /** Whether the rollout may still be written (decided by the caller, never by a clock). */
  readonly fresh: boolean;
}
