/** The reason a blocked decision reports, rendered once per clause. */

import { clauseString } from "./clause.js";
import type { WatchedClause } from "./watch-list.js";

// Keyed by the index's entry, which lives as long as the clause and never changes; a clause
// that blocks once tends to block again, and rendering its literals was a tenth of the call.
const rendered = new WeakMap<WatchedClause, string>();

/** `violates learned clause <id>: <clause>` for the clause that blocked a decision. */
export function decisionReason(c: WatchedClause): string {
  let reason = rendered.get(c);
  if (reason === undefined) {
    reason = `violates learned clause ${c.id}: ${clauseString(c)}`;
    rendered.set(c, reason);
  }
  return reason;
}
