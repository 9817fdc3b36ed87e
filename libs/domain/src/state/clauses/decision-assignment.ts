/** Builds the closed-world assignment for a proposed tool from a session's recent steps. */

import type { StepRecord } from "../steps/step-record.js";
import { closedWorldAssignment, type Assignment } from "./clause.js";

/**
 * True facts: `tool:<proposed>`; from the last step `prev_tool:`, `outcome:` and `error:`;
 * from the one before `prev_prev_tool:`. Every other variable is false, so clauses with
 * positive literals can block too.
 */
export function decisionAssignment(recent: readonly StepRecord[], proposedTool: string): Assignment {
  const facts = [`tool:${proposedTool}`];
  const last = recent[recent.length - 1];
  if (last !== undefined) {
    if (last.tool !== "") facts.push(`prev_tool:${last.tool}`);
    facts.push(`outcome:${last.outcome}`);
    if (last.errorCategory !== "") facts.push(`error:${last.errorCategory}`);
  }
  const before = recent[recent.length - 2];
  if (before !== undefined && before.tool !== "") facts.push(`prev_prev_tool:${before.tool}`);
  return closedWorldAssignment(facts);
}
