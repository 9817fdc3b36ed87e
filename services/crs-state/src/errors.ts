/** Closed set of crs-state failures; each maps to one gRPC code in `grpc/status-map.ts`. */
export type CrsStateErrorCode = "PROJECT_NOT_FOUND";

/** A named crs-state failure: its code, and the request field at fault when input was bad. */
export class CrsStateError extends Error {
  override readonly name = "CrsStateError";
  constructor(
    readonly code: CrsStateErrorCode,
    message: string,
    readonly metadata: Readonly<Record<string, string>> = {},
    options?: { cause?: unknown },
  ) {
    super(`crs-state: ${message}`, options);
  }
}
