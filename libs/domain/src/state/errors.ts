/**
 * Errors of the state engine: one class, one closed union of codes.
 *
 * The transport layer maps each code to a status code once; keep this list and that
 * mapping in step (see README "Errors").
 */

/** Every machine-readable reason the engine can fail with. */
export type StateErrorCode =
  /** A caller argument is malformed (empty id, bad enum, out-of-range number). */
  | "INVALID_ARGUMENT"
  /** A delta failed validation against the state it would apply to. */
  | "INVALID_DELTA"
  /** A soft or unknown signal attempted an action reserved for hard signals. */
  | "HARD_SIGNAL_VIOLATION"
  /** The caller's expected generation differs from the current one. */
  | "GENERATION_MISMATCH"
  /** A snapshot is older than the allowed staleness limit. */
  | "SNAPSHOT_STALE"
  /** No snapshot is retained for the requested generation. */
  | "SNAPSHOT_NOT_FOUND"
  /** A referenced proof node does not exist. */
  | "NODE_NOT_FOUND"
  /** A constraint referenced by id does not exist. */
  | "CONSTRAINT_NOT_FOUND"
  /** A constraint id is already taken. */
  | "CONSTRAINT_EXISTS"
  /** A delta removes or updates an index entry (a constraint, a dependency edge) that does not exist; metadata `index`, `id`. */
  | "INDEX_ENTRY_NOT_FOUND"
  /** Adding dependency edges would close a cycle. */
  | "DEPENDENCY_CYCLE"
  /** A clause id is taken by a clause with different literals. */
  | "CLAUSE_CONFLICT"
  /** A clause referenced by id does not exist. */
  | "CLAUSE_NOT_FOUND"
  /** A bounded index is full and the change would add a new entry. */
  | "CAPACITY_EXCEEDED"
  /** A streaming total would pass the largest exact count, 2^53-1; metadata `limit`. */
  | "TOTAL_EXCEEDED"
  /** Two deltas touch the same entries and cannot be combined. */
  | "DELTA_CONFLICT"
  /** A configuration would cap an index below what it holds, and that index never evicts. */
  | "CAPACITY_BELOW_CONTENT"
  /** An export document is malformed or inconsistent. */
  | "IMPORT_INVALID"
  /** Replaying an event did not reproduce the recorded generation. */
  | "REPLAY_DIVERGED"
  /** Engine options are out of range. */
  | "INVALID_CONFIG"
  /** An entry named in `expectedEntries` was changed since the caller read it (or exists when it must not). */
  | "ENTRY_MODIFIED"
  /** An event or document carries a format version this engine does not read. */
  | "UNSUPPORTED_FORMAT";

/** All codes, in declaration order, for exhaustive mappings and documentation. */
export const STATE_ERROR_CODES: readonly StateErrorCode[] = [
  "INVALID_ARGUMENT",
  "INVALID_DELTA",
  "HARD_SIGNAL_VIOLATION",
  "GENERATION_MISMATCH",
  "SNAPSHOT_STALE",
  "SNAPSHOT_NOT_FOUND",
  "NODE_NOT_FOUND",
  "CONSTRAINT_NOT_FOUND",
  "CONSTRAINT_EXISTS",
  "INDEX_ENTRY_NOT_FOUND",
  "DEPENDENCY_CYCLE",
  "CLAUSE_CONFLICT",
  "CLAUSE_NOT_FOUND",
  "CAPACITY_EXCEEDED",
  "TOTAL_EXCEEDED",
  "DELTA_CONFLICT",
  "CAPACITY_BELOW_CONTENT",
  "IMPORT_INVALID",
  "REPLAY_DIVERGED",
  "INVALID_CONFIG",
  "ENTRY_MODIFIED",
  "UNSUPPORTED_FORMAT",
];

/** Options accepted by {@link StateError}. */
export interface StateErrorOptions {
  /** Path of the offending input field, e.g. `updates[2].nodeId`. */
  readonly field?: string;
  /** The underlying error, when this one wraps another. */
  readonly cause?: unknown;
  /** Machine-readable details (for example the key of a modified entry), copied to the error's `metadata`. */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** The one error type thrown by the state engine. */
export class StateError extends Error {
  /** Machine-readable reason. */
  readonly code: StateErrorCode;
  /** Offending input field, when the input was at fault. */
  readonly field: string | undefined;
  /** Machine-readable details; empty unless the code documents some. */
  readonly metadata: Readonly<Record<string, string>>;

  constructor(code: StateErrorCode, message: string, options: StateErrorOptions = {}) {
    super(message.startsWith("state: ") ? message : `state: ${message}`, { cause: options.cause });
    this.name = "StateError";
    this.code = code;
    this.field = options.field;
    this.metadata = Object.freeze({ ...options.metadata });
  }

  /** Returns a copy whose field path is prefixed, for errors raised inside nested input. */
  withFieldPrefix(prefix: string): StateError {
    const own = this.field ?? "";
    const field = own === "" ? prefix : own.startsWith(".") || own.startsWith("[") ? `${prefix}${own}` : `${prefix}.${own}`;
    return new StateError(this.code, this.message, { field, cause: this.cause, metadata: this.metadata });
  }
}

/** True when `err` is a {@link StateError}, optionally with the given code. */
export function isStateError(err: unknown, code?: StateErrorCode): err is StateError {
  return err instanceof StateError && (code === undefined || err.code === code);
}

/** Shorthand for an INVALID_ARGUMENT error naming the field. */
export function invalidArgument(field: string, message: string): StateError {
  return new StateError("INVALID_ARGUMENT", message, { field });
}

/** Shorthand for an INVALID_DELTA error naming the field. */
export function invalidDelta(field: string, message: string): StateError {
  return new StateError("INVALID_DELTA", message, { field });
}
