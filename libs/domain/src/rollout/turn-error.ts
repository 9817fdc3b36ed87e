import { isObject } from "./json.js";

// An `error` event carries a free-text message and an optional machine classification
// (`codex_error_info`). Only the classification is kept, reduced to this closed set.

/** Closed class of an `error` event, from its `codex_error_info`. */
export type TurnErrorClass =
  | "context_window_exceeded"
  | "usage_limit_exceeded"
  | "server_overloaded"
  | "cyber_policy"
  | "http_connection_failed"
  | "response_stream_connection_failed"
  | "internal_server_error"
  | "unauthorized"
  | "bad_request"
  | "sandbox_error"
  | "response_stream_disconnected"
  | "response_too_many_failed_attempts"
  | "active_turn_not_steerable"
  | "thread_rollback_failed"
  | "other"
  /** The event carried no classification. */
  | "unclassified"
  /** The event carried a classification this reader does not know. */
  | "unrecognized";

/** Every turn-error class, in report order. */
export const TURN_ERROR_CLASSES: readonly TurnErrorClass[] = [
  "context_window_exceeded",
  "usage_limit_exceeded",
  "server_overloaded",
  "cyber_policy",
  "http_connection_failed",
  "response_stream_connection_failed",
  "internal_server_error",
  "unauthorized",
  "bad_request",
  "sandbox_error",
  "response_stream_disconnected",
  "response_too_many_failed_attempts",
  "active_turn_not_steerable",
  "thread_rollback_failed",
  "other",
  "unclassified",
  "unrecognized",
];

const KNOWN = new Set<string>(TURN_ERROR_CLASSES.filter((c) => c !== "unclassified" && c !== "unrecognized"));

// The producer documents exactly these two as errors that leave the turn running.
const NON_TERMINAL = new Set<TurnErrorClass>(["active_turn_not_steerable", "thread_rollback_failed"]);

/** Class of an error event's `codex_error_info` (a unit token, or a one-key object for variants with data). */
export function classifyTurnError(info: unknown): TurnErrorClass {
  if (info === undefined || info === null) return "unclassified";
  const token =
    typeof info === "string" ? info : isObject(info) ? (Object.keys(info).length === 1 ? Object.keys(info)[0] : undefined) : undefined;
  return token !== undefined && KNOWN.has(token) ? (token as TurnErrorClass) : "unrecognized";
}

/** True when an error of this class ends the turn it happens in (unknown classes do, as upstream's catch-all does). */
export function affectsTurnStatus(cls: TurnErrorClass): boolean {
  return !NON_TERMINAL.has(cls);
}
