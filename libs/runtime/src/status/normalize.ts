import { status } from "@grpc/grpc-js";
import { RpcError, RuntimeRpcError } from "../errors.js";
import type { ErrorDetail } from "./error-details.js";
import type { ReasonCatalog } from "./reasons.js";

/**
 * Turns a service's own named error into an RpcError, or returns undefined when the error is not
 * one of its own. Each service implements this once, in its `grpc/status-map.ts`.
 */
export type ErrorMapper = (error: unknown) => RpcError | undefined;

/** Whether `error` is what abortable APIs (timers, events, fetch) reject with once their signal aborts. */
export function isAbort(error: unknown): boolean {
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

/** What the normaliser needs besides the error. */
export interface NormalizeOptions {
  /** The proto package reported as `ErrorInfo.domain`. */
  readonly domain: string;
  /** The serving service's reasons; the runtime's own reasons are sent as its enum's names. */
  readonly reasons: ReasonCatalog;
  /** The service's mapping of its own errors. */
  readonly mapError?: ErrorMapper | undefined;
}

/**
 * The one normaliser from anything thrown by a handler to what the client sees. Unknown errors
 * become INTERNAL with a generic message; their detail stays in the server's log.
 */
export function normalizeError(error: unknown, options: NormalizeOptions): { detail: ErrorDetail; internal: boolean } {
  const { domain, reasons } = options;
  const mapped = error instanceof RpcError ? error : mapSafely(error, options.mapError);
  if (mapped !== undefined) {
    const reason = mapped instanceof RuntimeRpcError ? reasons.runtime(mapped.runtimeReason) : mapped.reason;
    return {
      detail: { code: mapped.code, message: mapped.message, reason, domain, metadata: mapped.metadata, retryDelayMs: mapped.retryDelayMs },
      internal: false,
    };
  }
  if (isAbort(error)) {
    return {
      detail: { code: status.CANCELLED, message: "call cancelled", reason: reasons.runtime("CANCELLED"), domain, metadata: {} },
      internal: false,
    };
  }
  return {
    detail: { code: status.INTERNAL, message: "internal error", reason: reasons.runtime("INTERNAL"), domain, metadata: {} },
    internal: true,
  };
}
