/** Step records: one agent decision in a session, with its outcome. */

import { invalidArgument } from "../errors.js";
import { isTimestamp } from "../proof/proof-number.js";

/** Who made a decision. */
export type Actor = "router" | "main_agent" | "system";
/** Decision kinds. */
export type Decision = "select_tool" | "execute_tool" | "synthesize" | "circuit_breaker" | "retry" | "complete" | "error";
/** Step outcomes. */
export type Outcome = "success" | "failure" | "skipped" | "forced";
/** Error categories; "" means none. */
export type ErrorCategory =
  | ""
  | "tool_not_found"
  | "invalid_params"
  | "timeout"
  | "rate_limited"
  | "permission"
  | "network"
  | "internal"
  | "safety";

/** Valid actors. */
export const ACTORS: readonly Actor[] = ["router", "main_agent", "system"];
/** Valid decisions. */
export const DECISIONS: readonly Decision[] = [
  "select_tool",
  "execute_tool",
  "synthesize",
  "circuit_breaker",
  "retry",
  "complete",
  "error",
];
/** Valid outcomes. */
export const OUTCOMES: readonly Outcome[] = ["success", "failure", "skipped", "forced"];
/** Valid error categories. */
export const ERROR_CATEGORIES: readonly ErrorCategory[] = [
  "",
  "tool_not_found",
  "invalid_params",
  "timeout",
  "rate_limited",
  "permission",
  "network",
  "internal",
  "safety",
];

/** True for the categories worth retrying: timeout, rate_limited, network. */
export function isRetryable(category: ErrorCategory): boolean {
  return category === "timeout" || category === "rate_limited" || category === "network";
}

/** One recorded step; optional text fields are "" when absent. */
export interface StepRecord {
  /** 1-based number within the session; 0 asks the store to assign one. */
  readonly stepNumber: number;
  /** Unix ms; 0 asks the store to stamp the current time. */
  readonly timestamp: number;
  /** Session the step belongs to. */
  readonly sessionId: string;
  /** Who decided. */
  readonly actor: Actor;
  /** What was decided. */
  readonly decision: Decision;
  /** Tool involved, or "". */
  readonly tool: string;
  /** Outcome. */
  readonly outcome: Outcome;
  /** Error category; required when the outcome is failure. */
  readonly errorCategory: ErrorCategory;
  /** Error text, or "". */
  readonly errorMessage: string;
  /** Confidence in [0, 1]. */
  readonly confidence: number;
  /** Duration in ms, non-negative. */
  readonly durationMs: number;
  /** Free-text reasoning, or "". */
  readonly reasoning: string;
  /** Short result summary, or "". */
  readonly resultSummary: string;
  /** Free string metadata (tool parameters, model, hints). */
  readonly metadata: Readonly<Record<string, string>>;
}

/** Fills defaults for omitted optional fields. */
export function makeStep(fields: Pick<StepRecord, "sessionId" | "actor" | "decision" | "outcome"> & Partial<StepRecord>): StepRecord {
  return {
    stepNumber: 0,
    timestamp: 0,
    tool: "",
    errorCategory: "",
    errorMessage: "",
    confidence: 0,
    durationMs: 0,
    reasoning: "",
    resultSummary: "",
    metadata: {},
    ...fields,
  };
}

/** Checks a step in the reference's order; throws INVALID_ARGUMENT naming the field. */
export function validateStep(s: StepRecord): void {
  if (typeof s.sessionId !== "string" || s.sessionId === "") throw invalidArgument("sessionId", "session_id must not be empty");
  if (!Number.isSafeInteger(s.stepNumber) || s.stepNumber < 1) throw invalidArgument("stepNumber", "step_number must be >= 1");
  if (!s.actor) throw invalidArgument("actor", "actor must not be empty");
  if (!ACTORS.includes(s.actor)) throw invalidArgument("actor", `actor "${s.actor}" is not a valid actor`);
  if (!s.decision) throw invalidArgument("decision", "decision must not be empty");
  if (!DECISIONS.includes(s.decision)) throw invalidArgument("decision", `decision "${s.decision}" is not a valid decision`);
  if (!s.outcome) throw invalidArgument("outcome", "outcome must not be empty");
  if (!OUTCOMES.includes(s.outcome)) throw invalidArgument("outcome", `outcome "${s.outcome}" is not a valid outcome`);
  if (!ERROR_CATEGORIES.includes(s.errorCategory))
    throw invalidArgument("errorCategory", `error_category "${s.errorCategory}" is not valid`);
  if (s.outcome === "failure" && s.errorCategory === "") {
    throw invalidArgument("errorCategory", "error_category is required when outcome is failure");
  }
  if (typeof s.confidence !== "number" || !(s.confidence >= 0 && s.confidence <= 1)) {
    throw invalidArgument("confidence", "confidence must be in range [0.0, 1.0]");
  }
  if (typeof s.durationMs !== "number" || !Number.isFinite(s.durationMs) || s.durationMs < 0) {
    throw invalidArgument("durationMs", "duration_ms must be non-negative");
  }
  if (!isTimestamp(s.timestamp)) throw invalidArgument("timestamp", "timestamp must be non-negative Unix ms");
  for (const key of ["tool", "errorMessage", "reasoning", "resultSummary"] as const) {
    if (typeof s[key] !== "string") throw invalidArgument(key, `${key} must be a string`);
  }
  if (s.metadata === null || typeof s.metadata !== "object" || Array.isArray(s.metadata))
    throw invalidArgument("metadata", "metadata must be an object");
  for (const [k, v] of Object.entries(s.metadata)) {
    if (typeof v !== "string") throw invalidArgument(`metadata.${k}`, "metadata values must be strings");
  }
}
