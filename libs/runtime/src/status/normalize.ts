import { status } from "@grpc/grpc-js";
import { RpcError } from "../errors.js";
import type { ErrorDetail } from "./error-details.js";

/**
 * Turns a service's own named error into an RpcError, or returns undefined when the error is not
 * one of its own. Each service implements this once, in its `grpc/status-map.ts`.
 */
export type ErrorMapper = (error: unknown) => RpcError | undefined;

/** Whether `error` is the runtime's signal that a call was aborted by the client or a deadline. */
function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

// A mapper that throws must not leave the call unanswered; the error is then an unknown one.
function mapSafely(error: unknown, mapError: ErrorMapper | undefined): RpcError | undefined {
  try {
    return mapError?.(error);
  } catch {
    return undefined;
  }
}

/**
 * The one normaliser from anything thrown by a handler to what the client sees. Unknown errors
 * become INTERNAL with a generic message; their detail stays in the server's log.
 */
export function normalizeError(
  error: unknown,
  options: { domain: string; mapError?: ErrorMapper | undefined },
): { detail: ErrorDetail; internal: boolean } {
  const mapped = error instanceof RpcError ? error : mapSafely(error, options.mapError);
  if (mapped !== undefined) {
    return {
      detail: { code: mapped.code, message: mapped.message, reason: mapped.reason, domain: options.domain, metadata: mapped.metadata },
      internal: false,
    };
  }
  if (isAbort(error)) {
    return {
      detail: { code: status.CANCELLED, message: "call cancelled", reason: "CANCELLED", domain: options.domain, metadata: {} },
      internal: false,
    };
  }
  return {
    detail: { code: status.INTERNAL, message: "internal error", reason: "INTERNAL", domain: options.domain, metadata: {} },
    internal: true,
  };
}
