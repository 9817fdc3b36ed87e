/** One-line human summaries of deltas, for watch streams and logs. */

import type { Delta } from "./delta.js";

/** A short summary such as `Updated proof numbers for 2 symbol(s)`. */
export function describeDelta(d: Delta): string {
  switch (d.kind) {
    case "proof":
      return `Updated proof numbers for ${d.updates.length} symbol(s)`;
    case "constraint":
      return `Constraints: +${d.add.length} -${d.remove.length} ~${d.update.length}`;
    case "similarity":
      return `Updated ${d.updates.length} similarity score(s)`;
    case "dependency":
      return `Dependencies: +${d.add.length} -${d.remove.length} edge(s)`;
    case "history":
      return `Added ${d.entries.length} history entr${d.entries.length === 1 ? "y" : "ies"}`;
    case "streaming":
      return "Updated streaming statistics";
    case "analytics":
      return `Recorded ${d.record.queryType} analysis with ${d.record.resultCount} result(s)`;
    case "composite":
      return `Composite delta with ${d.deltas.length} sub-delta(s)`;
  }
}
