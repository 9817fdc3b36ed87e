/** Closed set of failure codes a caller can branch on. */
export type RolloutErrorCode = "INVALID_ARGUMENT" | "CLOCK_REQUIRED" | "PARTIAL_VERSION_MISMATCH";

/** Options accepted by {@link RolloutError}. */
export interface RolloutErrorOptions {
  /** The offending input field, for bad-input errors. */
  readonly field?: string;
  /** The underlying failure, kept for diagnostics. */
  readonly cause?: unknown;
}

/** The one error type of the rollout domain; bad lines are skip reasons, not errors. */
export class RolloutError extends Error {
  /** Stable code for programmatic handling. */
  readonly code: RolloutErrorCode;
  /** Field that failed validation, when the input was at fault. */
  readonly field: string | undefined;

  constructor(code: RolloutErrorCode, detail: string, options: RolloutErrorOptions = {}) {
    super(`rollout: ${detail}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RolloutError";
    this.code = code;
    this.field = options.field;
  }
}

/** Builds the error for a missing or invalid injected clock. */
export function clockRequired(field: string): RolloutError {
  return new RolloutError("CLOCK_REQUIRED", `${field} is required (plans without a clock are not reproducible)`, {
    field,
  });
}

/** Builds the error for a malformed argument. */
export function invalidArgument(field: string, detail: string): RolloutError {
  return new RolloutError("INVALID_ARGUMENT", `${field}: ${detail}`, { field });
}
