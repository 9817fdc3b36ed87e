import { Metadata, type ServiceError, type status } from "@grpc/grpc-js";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { anyPack, anyUnpack, type Any } from "@bufbuild/protobuf/wkt";
import { StatusSchema } from "@crs/contracts/gen/google/rpc/status_pb";
import { BadRequestSchema, ErrorInfoSchema, RetryInfoSchema } from "@crs/contracts/gen/google/rpc/error_details_pb";

/** The trailer gRPC uses for a binary `google.rpc.Status` (the "rich error model"). */
export const STATUS_DETAILS_KEY = "grpc-status-details-bin";

/** What a client can branch on in a failed call, in any language. */
export interface ErrorDetail {
  /** The gRPC status code. */
  readonly code: status;
  /** Human-readable message. */
  readonly message: string;
  /** `ErrorInfo.reason`: an UPPER_SNAKE token, stable across versions. */
  readonly reason: string;
  /** `ErrorInfo.domain`: the proto package of the service that failed. */
  readonly domain: string;
  /** `ErrorInfo.metadata`: extra detail such as the offending field. */
  readonly metadata: Readonly<Record<string, string>>;
  /** `RetryInfo.retry_delay` in ms, when the call may be retried unchanged. */
  readonly retryDelayMs?: number | undefined;
}

/** Encodes `detail` as a grpc-js ServiceError with the Status trailer set. */
export function toServiceError(detail: ErrorDetail): ServiceError {
  // Metadata comes from any thrown RpcError; values that are not text must not fail the encoding.
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(detail.metadata ?? {})) metadata[key] = String(value);
  const details: Any[] = [
    anyPack(
      ErrorInfoSchema,
      create(ErrorInfoSchema, {
        reason: detail.reason,
        domain: detail.domain,
        metadata,
      }),
    ),
  ];
  const field = metadata["field"];
  if (field !== undefined) {
    details.push(
      anyPack(
        BadRequestSchema,
        create(BadRequestSchema, {
          fieldViolations: [{ field, description: detail.message, reason: detail.reason }],
        }),
      ),
    );
  }
  if (detail.retryDelayMs !== undefined) {
    const ms = Math.max(0, Math.round(detail.retryDelayMs));
    details.push(
      anyPack(
        RetryInfoSchema,
        create(RetryInfoSchema, { retryDelay: { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 } }),
      ),
    );
  }
  const rich = create(StatusSchema, { code: detail.code, message: detail.message, details });
  const trailers = new Metadata();
  trailers.set(STATUS_DETAILS_KEY, Buffer.from(toBinary(StatusSchema, rich)));
  const error = new Error(detail.message) as ServiceError;
  return Object.assign(error, { code: detail.code, details: detail.message, metadata: trailers });
}

/** Reads the ErrorInfo of a failed call, or undefined when the server sent none. */
export function errorDetailOf(error: Partial<ServiceError>): ErrorDetail | undefined {
  const raw = error.metadata?.get(STATUS_DETAILS_KEY)[0];
  if (raw === undefined || typeof raw === "string") return undefined;
  const rich = fromBinary(StatusSchema, raw);
  let retryDelayMs: number | undefined;
  for (const any of rich.details) {
    const retry = anyUnpack(any, RetryInfoSchema);
    if (retry?.retryDelay !== undefined)
      retryDelayMs = Number(retry.retryDelay.seconds) * 1000 + Math.round(retry.retryDelay.nanos / 1_000_000);
  }
  for (const any of rich.details) {
    const info = anyUnpack(any, ErrorInfoSchema);
    if (info !== undefined) {
      return {
        code: rich.code,
        message: rich.message,
        reason: info.reason,
        domain: info.domain,
        metadata: info.metadata,
        ...(retryDelayMs === undefined ? {} : { retryDelayMs }),
      };
    }
  }
  return undefined;
}
