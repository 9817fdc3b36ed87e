/** The entries a delta may change, per index, so their modification generations can move. */

import { analyticsDoneKey, analyticsFoundKey, hasResults } from "../analytics/analytics-record.js";
import type { Delta } from "../delta/delta.js";
import { similarityEntryKey, type EntryIndex } from "./mod-generations.js";

/** Keys of every proof entry, constraint and similarity pair `d` names (validated deltas only). */
export function deltaTouches(d: Delta): Record<EntryIndex, string[]> {
  const out: Record<EntryIndex, string[]> = { proof: [], constraint: [], clause: [], similarity: [] };
  collect(d, out);
  return out;
}

function collect(d: Delta, out: Record<EntryIndex, string[]>): void {
  switch (d.kind) {
    case "proof":
      for (const u of d.updates) out.proof.push(u.nodeId);
      return;
    case "constraint":
      out.constraint.push(...d.remove, ...d.update.map((c) => c.id), ...d.add.map((c) => c.id));
      return;
    case "similarity":
      for (const u of d.updates) out.similarity.push(similarityEntryKey(u.a, u.b));
      return;
    case "analytics":
      out.proof.push(analyticsDoneKey(d.record.queryType));
      if (hasResults(d.record)) out.proof.push(analyticsFoundKey(d.record.queryType));
      return;
    case "composite":
      for (const child of d.deltas) collect(child, out);
      return;
    default:
      return;
  }
}
