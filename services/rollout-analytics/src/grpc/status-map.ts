import { status } from "@grpc/grpc-js";
import { ErrorReason, ErrorReasonSchema } from "@crs/contracts/gen/crs/analytics/v1/errors_pb";
import { RpcError, reasonCatalog, type ErrorMapper, type StatusMapping } from "@crs/runtime";
import { RolloutError, type RolloutErrorCode } from "@crs/domain/rollout";
import { AnalyticsError, type AnalyticsErrorCode } from "../errors.js";

/** Every code rollout-analytics or the rollout fold fails with. */
export type AnalyticsFailureCode = AnalyticsErrorCode | RolloutErrorCode;

/**
 * The one mapping from rollout-analytics and rollout-fold error codes to the gRPC code and the
 * `ErrorReason` value clients branch on; a code without a row does not compile.
 */
export const STATUS_OF: Readonly<Record<AnalyticsFailureCode, StatusMapping<ErrorReason>>> = {
  INVALID_ARGUMENT: { code: status.INVALID_ARGUMENT, reason: ErrorReason.INVALID_ARGUMENT },
  CLOCK_REQUIRED: { code: status.INVALID_ARGUMENT, reason: ErrorReason.CLOCK_REQUIRED },
  MALFORMED_UPLOAD: { code: status.INVALID_ARGUMENT, reason: ErrorReason.MALFORMED_UPLOAD },
  ROLLOUT_TOO_LARGE: { code: status.RESOURCE_EXHAUSTED, reason: ErrorReason.ROLLOUT_TOO_LARGE },
  // What the runtime answers for any response over the message limit, said by the one that knows why.
  ANSWER_TOO_LARGE: { code: status.RESOURCE_EXHAUSTED, reason: ErrorReason.LIMIT_EXCEEDED },
  QUEUE_UNAVAILABLE: { code: status.UNAVAILABLE, reason: ErrorReason.QUEUE_UNAVAILABLE },
  SCAN_WORKER_FAILED: { code: status.INTERNAL, reason: ErrorReason.SCAN_FAILED },
  // The command line's own failures; no call writes a report file or reads a path.
  REPORT_NOT_WRITTEN: { code: status.INTERNAL, reason: ErrorReason.INTERNAL },
  ROLLOUT_NOT_READ: { code: status.INTERNAL, reason: ErrorReason.INTERNAL },
  PARTIAL_VERSION_MISMATCH: { code: status.FAILED_PRECONDITION, reason: ErrorReason.PARTIAL_VERSION_MISMATCH },
};

/** The reasons rollout-analytics sends, with the runtime's own failures placed in its enum. */
export const reasons = reasonCatalog(ErrorReasonSchema, {
  INVALID_ARGUMENT: ErrorReason.INVALID_ARGUMENT,
  LIMIT_EXCEEDED: ErrorReason.LIMIT_EXCEEDED,
  UNAUTHENTICATED: ErrorReason.UNAUTHENTICATED,
  SHUTTING_DOWN: ErrorReason.SHUTTING_DOWN,
  CANCELLED: ErrorReason.CANCELLED,
  DEADLINE_EXCEEDED: ErrorReason.DEADLINE_EXCEEDED,
  INTERNAL: ErrorReason.INTERNAL,
  UNIMPLEMENTED: ErrorReason.UNIMPLEMENTED,
});

const rpcError = (code: AnalyticsFailureCode, error: Error, metadata: Readonly<Record<string, string>>): RpcError => {
  const row = STATUS_OF[code];
  return new RpcError(row.code, reasons.of(row.reason), error.message, metadata, { cause: error });
};

/** Turns an AnalyticsError or a RolloutError into the RpcError clients see; other errors are left to the runtime. */
export const mapError: ErrorMapper = (error) => {
  if (error instanceof AnalyticsError) return rpcError(error.code, error, error.metadata);
  // The fold rejects only input the handlers let through: named by its field.
  if (error instanceof RolloutError) return rpcError(error.code, error, error.field === undefined ? {} : { field: error.field });
  return undefined;
};
