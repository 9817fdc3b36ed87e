import { status } from "@grpc/grpc-js";

/** Closed set of reasons the runtime itself fails with, before any service code runs. */
export type RuntimeErrorCode = "CONFIG_INVALID" | "TLS_FILE_UNREADABLE" | "LISTEN_FAILED" | "METRICS_LISTEN_FAILED";

/** A start-up failure of the runtime: bad configuration, unreadable certificates, a taken port. */
export class RuntimeError extends Error {
  override readonly name = "RuntimeError";
  constructor(
    readonly code: RuntimeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`runtime: ${message}`, options);
  }
}

/** Extra detail carried to clients in `google.rpc.ErrorInfo.metadata`. */
export type ErrorMetadata = Readonly<Record<string, string>>;

/**
 * An error with a gRPC status code and a machine-readable reason, sent to clients as
 * `google.rpc.Status{code, message, details: [ErrorInfo{reason, domain, metadata}]}`.
 * Handlers throw it directly for protocol-level failures; services map their own named errors to it.
 */
export class RpcError extends Error {
  override readonly name: string = "RpcError";
  /** When set, the call may be retried unchanged after this many ms (sent as google.rpc.RetryInfo). */
  readonly retryDelayMs: number | undefined;
  constructor(
    readonly code: status,
    readonly reason: string,
    message: string,
    readonly metadata: ErrorMetadata = {},
    options?: { cause?: unknown; retryDelayMs?: number | undefined },
  ) {
    super(message, options);
    this.retryDelayMs = options?.retryDelayMs;
  }
}

/**
 * The reasons the runtime itself fails calls with. Each service maps every one of them to a value
 * of its own `ErrorReason` enum (see `reasonCatalog`), so clients only ever see that enum's names.
 */
export type RuntimeReason =
  | "INVALID_ARGUMENT"
  | "LIMIT_EXCEEDED"
  | "UNAUTHENTICATED"
  | "SHUTTING_DOWN"
  | "CANCELLED"
  | "DEADLINE_EXCEEDED"
  | "INTERNAL"
  | "UNIMPLEMENTED";

/** Every runtime reason, for exhaustive checks of a service's mapping. */
export const RUNTIME_REASONS: readonly RuntimeReason[] = [
  "INVALID_ARGUMENT",
  "LIMIT_EXCEEDED",
  "UNAUTHENTICATED",
  "SHUTTING_DOWN",
  "CANCELLED",
  "DEADLINE_EXCEEDED",
  "INTERNAL",
  "UNIMPLEMENTED",
];

/**
 * A call failure raised by the runtime (or its validation helpers) rather than by a service; its
 * wire reason is the serving service's enum value for `runtimeReason`.
 */
export class RuntimeRpcError extends RpcError {
  override readonly name: string = "RuntimeRpcError";
  constructor(
    code: status,
    readonly runtimeReason: RuntimeReason,
    message: string,
    metadata: ErrorMetadata = {},
    options?: { cause?: unknown },
  ) {
    super(code, runtimeReason, message, metadata, options);
  }
}

/** INVALID_ARGUMENT naming the offending request field. */
export function invalidArgument(field: string, message: string): RpcError {
  return new RuntimeRpcError(status.INVALID_ARGUMENT, "INVALID_ARGUMENT", `${field}: ${message}`, { field });
}

/**
 * INVALID_ARGUMENT with reason LIMIT_EXCEEDED, naming the field and the limit it is over: the
 * contracts promise clients both, so the one way to build this error takes both.
 */
export function limitExceeded(field: string, limit: number, message: string): RpcError {
  return new RuntimeRpcError(status.INVALID_ARGUMENT, "LIMIT_EXCEEDED", `${field}: ${message}`, { field, limit: String(limit) });
}
