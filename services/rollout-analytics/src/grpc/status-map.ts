import { status } from "@grpc/grpc-js";
import { RpcError, type ErrorMapper } from "@crs/runtime";
import { RolloutError } from "@crs/domain/rollout";
import { AnalyticsError, type AnalyticsErrorCode } from "../errors.js";

/** The one mapping from rollout-analytics error codes to gRPC status codes. */
export const STATUS_OF: Record<AnalyticsErrorCode, status> = {
  INVALID_ARGUMENT: status.INVALID_ARGUMENT,
  CLOCK_REQUIRED: status.INVALID_ARGUMENT,
  MALFORMED_UPLOAD: status.INVALID_ARGUMENT,
  ROLLOUT_TOO_LARGE: status.RESOURCE_EXHAUSTED,
  LINE_TOO_LONG: status.RESOURCE_EXHAUSTED,
  QUEUE_UNAVAILABLE: status.UNAVAILABLE,
  SCAN_WORKER_FAILED: status.INTERNAL,
};

/** Turns an AnalyticsError into the RpcError clients see; other errors are left to the runtime. */
export const mapError: ErrorMapper = (error) => {
  if (error instanceof AnalyticsError) return new RpcError(STATUS_OF[error.code], error.code, error.message, error.metadata, { cause: error });
  // The fold rejects only input the handlers let through: a bad argument, named by its field.
  if (error instanceof RolloutError) {
    return new RpcError(status.INVALID_ARGUMENT, error.code, error.message, error.field === undefined ? {} : { field: error.field }, { cause: error });
  }
  return undefined;
};
