/** Builds the closed-world assignment for a proposed tool from a session's recent steps. */

import type { StepRecord } from "../steps/step-record.js";
import { ClosedWorldAssignment, type Assignment } from "./clause.js";

/**
 * True facts: `tool:<proposed>`; from the last step `prev_tool:`, `outcome:` and `error:`;
 * from the one before `prev_prev_tool:`. Every other variable is false, so clauses with
 * positive literals can block too.
 */
export function decisionAssignment(recent: readonly StepRecord[], proposedTool: string): Assignment {
  return assignmentAfter(recent[recent.length - 1], recent[recent.length - 2], proposedTool);
}

/** {@link decisionAssignment} from the last step and the one before it, so a caller need not copy the steps. */
export function assignmentAfter(last: StepRecord | undefined, before: StepRecord | undefined, proposedTool: string): Assignment {
  // The prefixes differ, so the facts are distinct without de-duplication.
  const facts = [`tool:${proposedTool}`];
  if (last !== undefined) {
    if (last.tool !== "") facts.push(`prev_tool:${last.tool}`);
    facts.push(`outcome:${last.outcome}`);
    if (last.errorCategory !== "") facts.push(`error:${last.errorCategory}`);
  }
  if (before !== undefined && before.tool !== "") facts.push(`prev_prev_tool:${before.tool}`);
  return new ClosedWorldAssignment(facts);
}
