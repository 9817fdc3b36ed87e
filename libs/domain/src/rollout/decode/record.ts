import type { Envelope } from "../envelope.js";
import type { StatusClass } from "../error-class.js";
import type { TurnErrorClass } from "../turn-error.js";
import type { TokenCountUsage } from "../usage/figures.js";
import type { ZeroToolCategory } from "../zero-tool.js";

/** Identity of a rollout, from its first session_meta. */
export interface RolloutMeta {
  readonly rolloutId: string;
  readonly provider: string;
  readonly cliVersion: string;
  readonly cwd: string;
  readonly originator: string;
  /** `cli`, `exec`, … or `subagent` / `subagent:<kind>` for object sources. */
  readonly source: string;
  readonly threadSource: string;
  /** Parent thread of a subagent rollout, when named. */
  readonly parentThreadId: string;
  /** The session a forked rollout was copied from (`forked_from_id`), when named. */
  readonly forkedFromId: string;
}

/** Lifecycle event kinds after alias normalisation. */
export type LifecycleKind = "task_started" | "task_complete" | "turn_aborted";

/** Where a user message was read from. */
export type UserMessageSource = "event" | "item";

/** How a tool call was written. */
export type CallPayloadKind = "function_call" | "custom_tool_call" | "local_shell_call";

interface Stamped {
  /** The line's raw timestamp text ("" when absent). */
  readonly timestamp: string;
  /** Parsed timestamp, null when absent or unparseable. */
  readonly tsMs: number | null;
}

/** One decoded, body-free rollout line. */
export type RolloutRecord =
  | ({ readonly kind: "session_meta"; readonly meta: RolloutMeta } & Stamped)
  | ({ readonly kind: "task_started"; readonly turnId: string; readonly alias: boolean } & Stamped)
  | ({
      readonly kind: "task_complete";
      readonly turnId: string;
      readonly alias: boolean;
      /** The producer's reason, as written ("" when absent). */
      readonly reason: string;
      readonly durationMs: number | null;
      readonly ttftMs: number | null;
      /** Provider status classes named in the final message (the message itself is dropped). */
      readonly statusClasses: readonly StatusClass[];
    } & Stamped)
  | ({
      readonly kind: "turn_aborted";
      readonly turnId: string;
      readonly reason: string;
      readonly durationMs: number | null;
    } & Stamped)
  | ({
      readonly kind: "token_count";
      readonly inputTokens: number;
      /** Token figures for the usage report (null when `info` is null). */
      readonly usage: TokenCountUsage | null;
      /** The model the event names for its reply ("" when none, as the producer writes it). */
      readonly model: string;
    } & Stamped)
  | ({ readonly kind: "compacted" } & Stamped)
  | ({ readonly kind: "turn_context"; readonly turnId: string; readonly model: string } & Stamped)
  | ({
      readonly kind: "tool_call";
      readonly payloadKind: CallPayloadKind;
      readonly callId: string;
      readonly tool: string;
      readonly head: string;
      readonly targets: readonly string[];
      readonly stdinPoll: boolean;
    } & Stamped)
  | ({ readonly kind: "tool_output"; readonly callId: string; readonly envelope: Envelope } & Stamped)
  | ({ readonly kind: "agent_message"; readonly phase: string; readonly category: ZeroToolCategory } & Stamped)
  | ({ readonly kind: "model_output" } & Stamped)
  | ({ readonly kind: "goal_continuation" } & Stamped)
  | ({ readonly kind: "thread_rolled_back"; readonly numTurns: number } & Stamped)
  | ({
      readonly kind: "user_message";
      /** `event`: an event_msg user_message; `item`: a user message item that is not injected context. */
      readonly source: UserMessageSource;
    } & Stamped)
  | ({
      readonly kind: "turn_error";
      /** Closed class of the error (its message text is dropped). */
      readonly errorClass: TurnErrorClass;
      /** Whether the producer treats this error as ending the turn. */
      readonly affectsTurn: boolean;
    } & Stamped)
  | ({ readonly kind: "event"; readonly payloadType: string } & Stamped);

/** Kind of a decoded record. */
export type RecordKind = RolloutRecord["kind"];

/** Why a line produced no record. */
export type SkipReason =
  | "blank"
  | "not_json"
  | "not_object"
  | "unknown_type"
  | "not_analysed"
  | "missing_payload"
  /** Longer than the reader holds, and its leading text names no record. */
  | "too_long"
  /** Nested too deep to walk without exhausting the stack. */
  | "too_deep";

/** Result of decoding one line. */
export type DecodedLine = { readonly ok: true; readonly record: RolloutRecord } | { readonly ok: false; readonly skip: SkipReason };
