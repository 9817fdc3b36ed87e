/** Closed set of rollout-analytics failures; each maps to one gRPC code in `grpc/status-map.ts`. */
export type AnalyticsErrorCode = "INVALID_ARGUMENT" | "QUEUE_UNAVAILABLE";

/** A named rollout-analytics failure, with the request field at fault when input was bad. */
export class AnalyticsError extends Error {
  override readonly name = "AnalyticsError";
  constructor(
    readonly code: AnalyticsErrorCode,
    message: string,
    readonly metadata: Readonly<Record<string, string>> = {},
    options?: { cause?: unknown },
  ) {
    super(`rollout-analytics: ${message}`, options);
  }
}

/** INVALID_ARGUMENT for `field`, whose value breaks `rule`. */
export function badField(field: string, rule: string): AnalyticsError {
  return new AnalyticsError("INVALID_ARGUMENT", `${field} ${rule}`, { field });
}
