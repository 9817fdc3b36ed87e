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

/**
 * Most UTF-8 bytes of an error message as sent, and of one ErrorInfo metadata value (an id of at
 * most 512 characters fits whole). Messages and metadata may echo request fields of any length,
 * and the message travels three times in the trailers (grpc-message, Status, BadRequest): unbounded,
 * trailers past the peer's header limit (8-64 KiB) make it drop the connection with every call on it.
 */
const MAX_ERROR_MESSAGE_BYTES = 1024;
const MAX_ERROR_METADATA_BYTES = 512;

/** `text` cut at a character boundary to at most `maxBytes` UTF-8 bytes, ending in "…" when cut. */
function bounded(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return text;
  let out = "";
  let bytes = 0;
  for (const char of text) {
    const n = Buffer.byteLength(char, "utf8");
    if (bytes + n > maxBytes - 3) break;
    out += char;
    bytes += n;
  }
  return `${out}…`;
}

/** Encodes `detail` as a grpc-js ServiceError with the Status trailer set. */
export function toServiceError(detail: ErrorDetail): ServiceError {
  // Metadata comes from any thrown RpcError; values that are not text must not fail the encoding.
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(detail.metadata ?? {})) metadata[key] = bounded(String(value), MAX_ERROR_METADATA_BYTES);
  const message = bounded(detail.message, MAX_ERROR_MESSAGE_BYTES);
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
          fieldViolations: [{ field, description: message, reason: detail.reason }],
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
  const rich = create(StatusSchema, { code: detail.code, message, details });
  const trailers = new Metadata();
  trailers.set(STATUS_DETAILS_KEY, Buffer.from(toBinary(StatusSchema, rich)));
  const error = new Error(message) as ServiceError;
  return Object.assign(error, { code: detail.code, details: message, metadata: trailers });
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
