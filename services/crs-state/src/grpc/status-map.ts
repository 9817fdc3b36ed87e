import { status } from "@grpc/grpc-js";
import { ErrorReason, ErrorReasonSchema } from "@crs/contracts/gen/crs/state/v1/errors_pb";
import { RpcError, reasonCatalog, type ErrorMapper, type StatusMapping } from "@crs/runtime";
import { StateError, type StateErrorCode } from "@crs/domain/state";
import { CrsStateError, type CrsStateErrorCode } from "../errors.js";
import { snake } from "./field-paths.js";

/** Suggested wait before retrying a call the store could not write (sent as google.rpc.RetryInfo). */
export const STORE_RETRY_DELAY_MS = 1000;

/** Every code crs-state or its engine fails with. */
export type CrsStateFailureCode = CrsStateErrorCode | StateErrorCode;

/**
 * The one mapping from crs-state and engine error codes to the gRPC code and the `ErrorReason`
 * value clients branch on; a code without a row does not compile. Rules (errors.proto): wrong in
 * any state is INVALID_ARGUMENT, wrong for this state FAILED_PRECONDITION (ABORTED when a re-read
 * and retry can succeed), corrupted stored data DATA_LOSS, a store that cannot serve UNAVAILABLE.
 */
export const STATUS_OF: Readonly<Record<CrsStateFailureCode, StatusMapping<ErrorReason>>> = {
  PROJECT_NOT_FOUND: { code: status.NOT_FOUND, reason: ErrorReason.PROJECT_NOT_FOUND },
  PROJECT_EXISTS: { code: status.ALREADY_EXISTS, reason: ErrorReason.PROJECT_ALREADY_EXISTS },
  PROJECT_UID_MISMATCH: { code: status.FAILED_PRECONDITION, reason: ErrorReason.PROJECT_UID_MISMATCH },
  // The same id with other content is a client bug, wrong whatever the state.
  REQUEST_ID_REUSED: { code: status.INVALID_ARGUMENT, reason: ErrorReason.REQUEST_ID_REUSED },
  CHECKPOINT_NOT_FOUND: { code: status.NOT_FOUND, reason: ErrorReason.CHECKPOINT_NOT_FOUND },
  CHECKPOINT_EXISTS: { code: status.ALREADY_EXISTS, reason: ErrorReason.CHECKPOINT_ALREADY_EXISTS },
  // One damaged checkpoint is not a damaged project: the project serves on, and the checkpoint can be deleted.
  CHECKPOINT_CORRUPTED: { code: status.DATA_LOSS, reason: ErrorReason.CHECKPOINT_CORRUPTED },
  // A full per-project quota, as a full similarity index is: not worth retrying until a checkpoint is deleted.
  CHECKPOINT_LIMIT: { code: status.RESOURCE_EXHAUSTED, reason: ErrorReason.LIMIT_EXCEEDED },
  PROJECT_DATA_LOSS: { code: status.DATA_LOSS, reason: ErrorReason.PROJECT_CORRUPTED },
  JOURNAL_CORRUPTED: { code: status.DATA_LOSS, reason: ErrorReason.JOURNAL_CORRUPTED },
  SNAPSHOT_CORRUPTED: { code: status.DATA_LOSS, reason: ErrorReason.PROJECT_CORRUPTED },
  REPAIR_FAILED: { code: status.INTERNAL, reason: ErrorReason.INTERNAL },
  // The data is intact and the request fine: this binary is too old for the project (a newer one reads it).
  FORMAT_UNSUPPORTED: { code: status.FAILED_PRECONDITION, reason: ErrorReason.UNSUPPORTED_FORMAT },
  // The store probes itself and serves again once it can write: worth retrying unchanged.
  STORE_UNAVAILABLE: { code: status.UNAVAILABLE, reason: ErrorReason.STORE_UNAVAILABLE, retryDelayMs: STORE_RETRY_DELAY_MS },
  GENERATION_IN_FUTURE: { code: status.OUT_OF_RANGE, reason: ErrorReason.GENERATION_IN_FUTURE },
  GENERATION_COMPACTED: { code: status.OUT_OF_RANGE, reason: ErrorReason.GENERATION_COMPACTED },
  // Load, not a bad request: the consumer resumes from its last generation once it reads faster.
  WATCH_SLOW_CONSUMER: { code: status.RESOURCE_EXHAUSTED, reason: ErrorReason.WATCH_SLOW_CONSUMER, retryDelayMs: STORE_RETRY_DELAY_MS },
  INVALID_PAGE_TOKEN: { code: status.INVALID_ARGUMENT, reason: ErrorReason.INVALID_PAGE_TOKEN },
  DELTA_REQUIRED: { code: status.INVALID_ARGUMENT, reason: ErrorReason.DELTA_REQUIRED },
  STEP_NOT_FOUND: { code: status.NOT_FOUND, reason: ErrorReason.STEP_NOT_FOUND },
  SIMILARITY_NOT_FOUND: { code: status.NOT_FOUND, reason: ErrorReason.SIMILARITY_NOT_FOUND },
  CHANGE_NOT_FOUND: { code: status.NOT_FOUND, reason: ErrorReason.CHANGE_NOT_FOUND },
  // A limit of the server that the state reached (a loop this long), not a malformed request.
  CHANGE_TOO_LARGE: { code: status.RESOURCE_EXHAUSTED, reason: ErrorReason.LIMIT_EXCEEDED },
  // A limit of the server, as an oversized rollout upload is: the same document never fits.
  IMPORT_TOO_LARGE: { code: status.RESOURCE_EXHAUSTED, reason: ErrorReason.LIMIT_EXCEEDED },
  // A document damaged on its way, the import counterpart of a backup whose content hash does not match.
  DOCUMENT_MISMATCH: { code: status.DATA_LOSS, reason: ErrorReason.BACKUP_CORRUPTED },
  BACKUP_NOT_FOUND: { code: status.NOT_FOUND, reason: ErrorReason.BACKUP_NOT_FOUND },
  // A per-project quota, as CHECKPOINT_LIMIT: not worth retrying until a backup is deleted.
  BACKUP_LIMIT: { code: status.RESOURCE_EXHAUSTED, reason: ErrorReason.LIMIT_EXCEEDED },
  BACKUP_CORRUPTED: { code: status.DATA_LOSS, reason: ErrorReason.BACKUP_CORRUPTED },
  BACKUP_METADATA_CORRUPTED: { code: status.DATA_LOSS, reason: ErrorReason.METADATA_CORRUPTED },
  // Intact backups this server cannot read, or the caller does not accept: wrong for this backup, not damaged.
  BACKUP_VERSION_MISMATCH: { code: status.FAILED_PRECONDITION, reason: ErrorReason.BACKUP_VERSION_MISMATCH },
  BACKUP_SCHEMA_MISMATCH: { code: status.FAILED_PRECONDITION, reason: ErrorReason.SCHEMA_VERSION_MISMATCH },
  BACKUP_TOO_OLD: { code: status.FAILED_PRECONDITION, reason: ErrorReason.CHECKPOINT_TOO_OLD },
  BACKUP_FINGERPRINT_MISMATCH: { code: status.FAILED_PRECONDITION, reason: ErrorReason.PROJECT_HASH_MISMATCH },
  INVALID_ARGUMENT: { code: status.INVALID_ARGUMENT, reason: ErrorReason.INVALID_ARGUMENT },
  INVALID_CONFIG: { code: status.INVALID_ARGUMENT, reason: ErrorReason.INVALID_ARGUMENT },
  INVALID_DELTA: { code: status.INVALID_ARGUMENT, reason: ErrorReason.DELTA_VALIDATION },
  IMPORT_INVALID: { code: status.INVALID_ARGUMENT, reason: ErrorReason.IMPORT_INVALID },
  UNSUPPORTED_FORMAT: { code: status.INVALID_ARGUMENT, reason: ErrorReason.UNSUPPORTED_FORMAT },
  // A soft source can never perform a hard action, whatever the state.
  HARD_SIGNAL_VIOLATION: { code: status.INVALID_ARGUMENT, reason: ErrorReason.HARD_SOFT_BOUNDARY },
  DEPENDENCY_CYCLE: { code: status.FAILED_PRECONDITION, reason: ErrorReason.DEPENDENCY_CYCLE },
  GENERATION_MISMATCH: { code: status.ABORTED, reason: ErrorReason.GENERATION_MISMATCH },
  ENTRY_MODIFIED: { code: status.ABORTED, reason: ErrorReason.ENTRY_MODIFIED },
  SNAPSHOT_STALE: { code: status.ABORTED, reason: ErrorReason.SNAPSHOT_STALE },
  DELTA_CONFLICT: { code: status.ABORTED, reason: ErrorReason.DELTA_CONFLICT },
  // The engine keeps a bounded ring of snapshots: a generation outside it is no longer retained.
  SNAPSHOT_NOT_FOUND: { code: status.OUT_OF_RANGE, reason: ErrorReason.GENERATION_COMPACTED },
  NODE_NOT_FOUND: { code: status.NOT_FOUND, reason: ErrorReason.NODE_NOT_FOUND },
  CONSTRAINT_NOT_FOUND: { code: status.NOT_FOUND, reason: ErrorReason.CONSTRAINT_NOT_FOUND },
  INDEX_ENTRY_NOT_FOUND: { code: status.NOT_FOUND, reason: ErrorReason.INDEX_NOT_FOUND },
  CONSTRAINT_EXISTS: { code: status.ALREADY_EXISTS, reason: ErrorReason.ALREADY_EXISTS },
  CLAUSE_CONFLICT: { code: status.ALREADY_EXISTS, reason: ErrorReason.CLAUSE_ID_CONFLICT },
  CLAUSE_NOT_FOUND: { code: status.NOT_FOUND, reason: ErrorReason.CLAUSE_NOT_FOUND },
  // The similarity index is the bounded one clients fill.
  CAPACITY_EXCEEDED: { code: status.RESOURCE_EXHAUSTED, reason: ErrorReason.SIMILARITY_CAPACITY },
  // A streaming total at 2^53-1 takes no more counts: a limit of the server, not a full similarity index.
  TOTAL_EXCEEDED: { code: status.RESOURCE_EXHAUSTED, reason: ErrorReason.LIMIT_EXCEEDED },
  // A configuration capping similarity below the stored pairs fits once pairs are fewer: the state is wrong, not the value.
  CAPACITY_BELOW_CONTENT: { code: status.FAILED_PRECONDITION, reason: ErrorReason.SIMILARITY_CAPACITY },
  // A journal that does not replay to its recorded generation is corrupt.
  REPLAY_DIVERGED: { code: status.DATA_LOSS, reason: ErrorReason.JOURNAL_CORRUPTED },
};

/** The reasons crs-state sends, with the runtime's own failures placed in its enum. */
export const reasons = reasonCatalog(ErrorReasonSchema, {
  INVALID_ARGUMENT: ErrorReason.INVALID_ARGUMENT,
  LIMIT_EXCEEDED: ErrorReason.LIMIT_EXCEEDED,
  UNAUTHENTICATED: ErrorReason.UNAUTHENTICATED,
  SHUTTING_DOWN: ErrorReason.SERVER_SHUTTING_DOWN,
  CANCELLED: ErrorReason.CANCELLED,
  DEADLINE_EXCEEDED: ErrorReason.DEADLINE_EXCEEDED,
  INTERNAL: ErrorReason.INTERNAL,
  UNIMPLEMENTED: ErrorReason.UNIMPLEMENTED,
});

// ErrorInfo metadata keys are snake_case, as errors.proto names them (`project_id`, `checkpoint_id`);
// code inside the service names them as TypeScript does.
const snakeKeys = (metadata: Readonly<Record<string, string>>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) out[snake(key)] = value;
  return out;
};

const rpcError = (code: CrsStateFailureCode, error: Error, metadata: Readonly<Record<string, string>>): RpcError => {
  const row = STATUS_OF[code];
  return new RpcError(row.code, reasons.of(row.reason), error.message, snakeKeys(metadata), {
    cause: error,
    retryDelayMs: row.retryDelayMs,
  });
};

/** Turns a CrsStateError or an engine StateError into the RpcError clients see; other errors are left to the runtime. */
export const mapError: ErrorMapper = (error) => {
  if (error instanceof CrsStateError) return rpcError(error.code, error, error.metadata);
  if (error instanceof StateError)
    return rpcError(error.code, error, { ...error.metadata, ...(error.field === undefined ? {} : { field: error.field }) });
  return undefined;
};
