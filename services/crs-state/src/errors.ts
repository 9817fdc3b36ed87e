/**
 * Closed set of crs-state failures; each maps to one gRPC code in `grpc/status-map.ts`.
 *
 * - PROJECT_NOT_FOUND: no project (or checkpoint source) with that id.
 * - PROJECT_EXISTS: create or fork onto an id that is taken.
 * - PROJECT_UID_MISMATCH: the caller's expected uid names another incarnation of the project.
 * - REQUEST_ID_REUSED: a request id came back with another method or request content.
 * - CHECKPOINT_NOT_FOUND / CHECKPOINT_EXISTS: durable named checkpoints.
 * - CHECKPOINT_CORRUPTED: one checkpoint failed its CRC, framing or decode check; only that
 *   checkpoint is unusable, the project serves on.
 * - CHECKPOINT_LIMIT: the project holds the most checkpoints the server keeps per project.
 * - INVALID_ARGUMENT: a malformed id or page size (the field is named).
 * - INVALID_PAGE_TOKEN: a page token is malformed, or from another request or project incarnation.
 * - PROJECT_DATA_LOSS: recovery found corruption it may not repair; the project refuses calls.
 * - JOURNAL_CORRUPTED: a journal record failed its CRC or framing check away from the tail.
 * - SNAPSHOT_CORRUPTED: a state snapshot failed its CRC or decode check.
 * - FORMAT_UNSUPPORTED: a stored value (journal record, event, snapshot, metadata) is intact but in
 *   a format newer than this binary reads; the project is not loaded, nothing is cut or changed.
 * - REPAIR_FAILED: cutting a torn tail (or keeping its copy) failed; nothing was cut.
 * - STORE_UNAVAILABLE: the store cannot write now (full disk, closed); nothing was acknowledged.
 *
 * Raised by the gRPC handlers:
 * - GENERATION_IN_FUTURE: a read asked for a generation the project has not reached.
 * - GENERATION_COMPACTED: a watch asked to start below the oldest change the history still holds,
 *   or the state it watched was replaced (restore, import).
 * - WATCH_SLOW_CONSUMER: a watch fell further behind than the messages a watch may queue.
 * - DELTA_REQUIRED: an apply carried no delta, or a delta with no kind.
 * - STEP_NOT_FOUND / SIMILARITY_NOT_FOUND / CHANGE_NOT_FOUND: a single-entry read found nothing.
 * - CHANGE_TOO_LARGE: a mutation would write a change record no response under the message limit
 *   could carry (a detected cycle's grows with the loop); nothing changed.
 * - IMPORT_TOO_LARGE: an imported document, declared or received, is over the server's limit.
 * - DOCUMENT_MISMATCH: an imported document's size or SHA-256 is not the one its header gave.
 *
 * Raised by the backups (nothing is changed by any of them):
 * - BACKUP_NOT_FOUND / BACKUP_LIMIT: no such backup; the project holds the most backups kept per project.
 * - BACKUP_CORRUPTED / BACKUP_METADATA_CORRUPTED: the content, or the metadata, fails its hash or decode.
 * - BACKUP_VERSION_MISMATCH / BACKUP_SCHEMA_MISMATCH: written in a format or schema this server does not read.
 * - BACKUP_TOO_OLD / BACKUP_FINGERPRINT_MISMATCH: the backup is older, or of another fingerprint, than the call allows.
 */
export type CrsStateErrorCode =
  | "PROJECT_NOT_FOUND"
  | "PROJECT_EXISTS"
  | "PROJECT_UID_MISMATCH"
  | "REQUEST_ID_REUSED"
  | "CHECKPOINT_NOT_FOUND"
  | "CHECKPOINT_EXISTS"
  | "CHECKPOINT_CORRUPTED"
  | "CHECKPOINT_LIMIT"
  | "INVALID_ARGUMENT"
  | "PROJECT_DATA_LOSS"
  | "JOURNAL_CORRUPTED"
  | "SNAPSHOT_CORRUPTED"
  | "FORMAT_UNSUPPORTED"
  | "REPAIR_FAILED"
  | "STORE_UNAVAILABLE"
  | "GENERATION_IN_FUTURE"
  | "GENERATION_COMPACTED"
  | "WATCH_SLOW_CONSUMER"
  | "INVALID_PAGE_TOKEN"
  | "DELTA_REQUIRED"
  | "STEP_NOT_FOUND"
  | "SIMILARITY_NOT_FOUND"
  | "CHANGE_NOT_FOUND"
  | "CHANGE_TOO_LARGE"
  | "IMPORT_TOO_LARGE"
  | "DOCUMENT_MISMATCH"
  | "BACKUP_NOT_FOUND"
  | "BACKUP_LIMIT"
  | "BACKUP_CORRUPTED"
  | "BACKUP_METADATA_CORRUPTED"
  | "BACKUP_VERSION_MISMATCH"
  | "BACKUP_SCHEMA_MISMATCH"
  | "BACKUP_TOO_OLD"
  | "BACKUP_FINGERPRINT_MISMATCH";

/** A named crs-state failure: its code, and the request field at fault when input was bad. */
export class CrsStateError extends Error {
  override readonly name = "CrsStateError";
  constructor(
    readonly code: CrsStateErrorCode,
    /** The message without the service prefix, for an error re-raised with more context. */
    readonly detail: string,
    readonly metadata: Readonly<Record<string, string>> = {},
    options?: { cause?: unknown },
  ) {
    super(`crs-state: ${detail}`, options);
  }
}

/** True when `e` is a CrsStateError (optionally with code `code`). */
export function isCrsStateError(e: unknown, code?: CrsStateErrorCode): e is CrsStateError {
  return e instanceof CrsStateError && (code === undefined || e.code === code);
}

/** FORMAT_UNSUPPORTED for `projectId`'s stored `what` (e.g. "record 7"), with the decoder's reason. */
export function formatUnsupported(projectId: string, what: string, reason: string): CrsStateError {
  return new CrsStateError("FORMAT_UNSUPPORTED", `project ${projectId}: ${what}: ${reason}; a newer server reads it`, {
    project_id: projectId,
    stored: what,
  });
}

/** GENERATION_IN_FUTURE: `field` asked for `generation`, which the project (at `current`) has not reached. */
export function generationInFuture(field: string, generation: number, current: number): CrsStateError {
  return new CrsStateError("GENERATION_IN_FUTURE", `${field}: generation ${generation} is newer than the project's ${current}`, {
    field,
    current_generation: String(current),
  });
}
