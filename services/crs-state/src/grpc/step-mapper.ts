import type { StepRecord as WireStep } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { invalidArgument, requireSafeCount } from "@crs/runtime";
import type { Actor, Decision, ErrorCategory, Outcome, StepRecord } from "@crs/domain/state";
import { optionalKey, requireId, requireMetadata, requireTextAtMost } from "./ids.js";

/** Longest free text of a step field, in bytes. */
export const MAX_STEP_TEXT_BYTES = 65_536;

/**
 * The engine's step for a wire step. Vocabulary fields stay open strings on the wire; the engine
 * checks them against its vocabulary and names the field when one is unknown.
 */
export function stepIn(step: WireStep | undefined, field = "step"): StepRecord {
  if (step === undefined) throw invalidArgument(field, "is required");
  return {
    stepNumber: requireSafeCount(step.stepNumber, `${field}.step_number`),
    timestamp: requireSafeCount(step.timestampUnixMs, `${field}.timestamp_unix_ms`),
    sessionId: requireId(step.sessionId, `${field}.session_id`),
    actor: step.actor as Actor,
    decision: step.decision as Decision,
    tool: optionalKey(step.tool, `${field}.tool`),
    outcome: step.outcome as Outcome,
    errorCategory: step.errorCategory as ErrorCategory,
    errorMessage: requireTextAtMost(step.errorMessage, MAX_STEP_TEXT_BYTES, `${field}.error_message`),
    confidence: step.confidence,
    durationMs: step.durationMs,
    reasoning: requireTextAtMost(step.reasoning, MAX_STEP_TEXT_BYTES, `${field}.reasoning`),
    resultSummary: requireTextAtMost(step.resultSummary, MAX_STEP_TEXT_BYTES, `${field}.result_summary`),
    metadata: requireMetadata(step.metadata, 64, `${field}.metadata`),
  };
}
