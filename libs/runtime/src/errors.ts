import { status } from "@grpc/grpc-js";

/** Closed set of reasons the runtime itself fails with, before any service code runs. */
export type RuntimeErrorCode =
  | "CONFIG_INVALID"
  | "TLS_FILE_UNREADABLE"
  | "LISTEN_FAILED"
  | "METRICS_LISTEN_FAILED";

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
  override readonly name = "RpcError";
  constructor(
    readonly code: status,
    readonly reason: string,
    message: string,
    readonly metadata: ErrorMetadata = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** INVALID_ARGUMENT naming the offending request field. */
export function invalidArgument(field: string, message: string, reason = "INVALID_ARGUMENT"): RpcError {
  return new RpcError(status.INVALID_ARGUMENT, reason, `${field}: ${message}`, { field });
}

/** UNIMPLEMENTED for a method whose contract exists but whose behaviour is not served here. */
export function unimplemented(method: string): RpcError {
  return new RpcError(status.UNIMPLEMENTED, "UNIMPLEMENTED", `${method} is not implemented by this server`);
}
