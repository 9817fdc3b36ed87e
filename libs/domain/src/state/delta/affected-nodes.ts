/** Nodes a delta touches, for the delta history's by-node index. */

import { sortUtf8 } from "../bytes.js";
import { analyticsDoneKey, analyticsFoundKey, hasResults } from "../analytics/analytics-record.js";
import type { Delta } from "./delta.js";

function collect(d: Delta, out: Set<string>): void {
  switch (d.kind) {
    case "proof":
      for (const u of d.updates) out.add(u.nodeId);
      return;
    case "constraint":
      for (const c of [...d.add, ...d.update]) for (const n of c.nodes) out.add(n);
      for (const id of d.remove) out.add(id);
      return;
    case "similarity":
      for (const u of d.updates) out.add(u.a).add(u.b);
      return;
    case "dependency":
      for (const e of [...d.add, ...d.remove]) out.add(e.from).add(e.to);
      return;
    case "history":
      for (const e of d.entries) if (e.nodeId !== "") out.add(e.nodeId);
      return;
    case "streaming":
      for (const inc of d.increments) out.add(inc.item);
      for (const item of d.observed) out.add(item);
      return;
    case "analytics":
      out.add(analyticsDoneKey(d.record.queryType));
      if (hasResults(d.record)) out.add(analyticsFoundKey(d.record.queryType));
      return;
    case "composite":
      for (const child of d.deltas) collect(child, out);
  }
}

/** Distinct node ids touched by `d`, sorted byte-wise. */
export function affectedNodes(d: Delta): string[] {
  const out = new Set<string>();
  collect(d, out);
  return sortUtf8(out);
}
