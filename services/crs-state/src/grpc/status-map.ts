import { status } from "@grpc/grpc-js";
import { RpcError, type ErrorMapper } from "@crs/runtime";
import { CrsStateError, type CrsStateErrorCode } from "../errors.js";

/** The one mapping from crs-state error codes to gRPC status codes. */
export const STATUS_OF: Record<CrsStateErrorCode, status> = {
  PROJECT_NOT_FOUND: status.NOT_FOUND,
  PROJECT_EXISTS: status.ALREADY_EXISTS,
  PROJECT_UID_MISMATCH: status.FAILED_PRECONDITION,
  REQUEST_ID_REUSED: status.FAILED_PRECONDITION,
  CHECKPOINT_NOT_FOUND: status.NOT_FOUND,
  CHECKPOINT_EXISTS: status.ALREADY_EXISTS,
  INVALID_ARGUMENT: status.INVALID_ARGUMENT,
  PROJECT_DATA_LOSS: status.DATA_LOSS,
  JOURNAL_CORRUPTED: status.DATA_LOSS,
  SNAPSHOT_CORRUPTED: status.DATA_LOSS,
  REPAIR_FAILED: status.INTERNAL,
  STORE_UNAVAILABLE: status.UNAVAILABLE,
  GENERATION_IN_FUTURE: status.OUT_OF_RANGE,
  INVALID_PAGE_TOKEN: status.INVALID_ARGUMENT,
  DELTA_REQUIRED: status.INVALID_ARGUMENT,
  STEP_NOT_FOUND: status.NOT_FOUND,
  SIMILARITY_NOT_FOUND: status.NOT_FOUND,
  CHANGE_NOT_FOUND: status.NOT_FOUND,
};

/** Turns a CrsStateError into the RpcError clients see; other errors are left to the runtime. */
export const mapError: ErrorMapper = (error) =>
  error instanceof CrsStateError ? new RpcError(STATUS_OF[error.code], error.code, error.message, error.metadata, { cause: error }) : undefined;
