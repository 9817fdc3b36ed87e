/** Closed set of rollout-analytics failures; each maps to one gRPC code in `grpc/status-map.ts`. */
export type AnalyticsErrorCode =
  | "INVALID_ARGUMENT"
  | "CLOCK_REQUIRED"
  | "MALFORMED_UPLOAD"
  | "ROLLOUT_TOO_LARGE"
  | "ANSWER_TOO_LARGE"
  | "QUEUE_UNAVAILABLE"
  | "SCAN_WORKER_FAILED"
  | "REPORT_NOT_WRITTEN"
  | "ROLLOUT_NOT_READ";

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

/** CLOCK_REQUIRED for a missing or non-positive clock in `field`. */
export function clockRequired(field: string): AnalyticsError {
  return new AnalyticsError("CLOCK_REQUIRED", `${field} is required: reports without a clock are not reproducible`, { field });
}

/** MALFORMED_UPLOAD: the upload stream breaks its protocol at `field` (order, size or hash). */
export function malformedUpload(field: string, rule: string): AnalyticsError {
  return new AnalyticsError("MALFORMED_UPLOAD", `${field} ${rule}`, { field });
}

/** ROLLOUT_TOO_LARGE: the upload, declared or received, exceeds `limit` bytes. */
export function rolloutTooLarge(field: string, bytes: number | bigint, limit: number): AnalyticsError {
  return new AnalyticsError("ROLLOUT_TOO_LARGE", `${field}: the rollout has at least ${bytes} bytes; at most ${limit} are accepted`, {
    field,
    limit: String(limit),
  });
}

/**
 * ANSWER_TOO_LARGE: an AnalyzeRollout answer has `bytes` with every listing left out, over the
 * `budget` the server's GRPC_MAX_MESSAGE_BYTES leaves it.
 */
export function answerTooLarge(bytes: number, budget: number): AnalyticsError {
  return new AnalyticsError(
    "ANSWER_TOO_LARGE",
    `the answer has ${bytes} bytes even with every listing left out; the server's message limit (GRPC_MAX_MESSAGE_BYTES) leaves it ${budget}`,
    { limit: String(budget) },
  );
}

/** REPORT_NOT_WRITTEN: the CLI's report could not be written to `--out` after its checks passed (a full disk). */
export function reportNotWritten(path: string, code: string, cause: unknown): AnalyticsError {
  return new AnalyticsError(
    "REPORT_NOT_WRITTEN",
    `--out ${path} could not be written (${code}); the report is lost, run the command again`,
    {},
    { cause },
  );
}

/**
 * ROLLOUT_NOT_READ: the CLI's `<file>` failed part way, after `bytes` were read (`code`, as EIO);
 * one that fails before its first byte is a bad `<file>` instead.
 */
export function rolloutNotRead(file: string, bytes: number, code: string, cause: unknown): AnalyticsError {
  return new AnalyticsError(
    "ROLLOUT_NOT_READ",
    `<file> ${file} failed after ${bytes} bytes (${code}); no report of part of a rollout is printed`,
    {},
    { cause },
  );
}

/** SCAN_WORKER_FAILED: a scan worker thread died (not a file failing to read). */
export function scanWorkerFailed(detail: string, cause?: unknown): AnalyticsError {
  return new AnalyticsError("SCAN_WORKER_FAILED", `scan worker failed: ${detail}`, {}, { cause });
}
