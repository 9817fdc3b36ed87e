/** Conflict rules: two deltas conflict when applying them in either order could differ. */

import { analyticsDoneKey, analyticsFoundKey } from "../analytics/analytics-record.js";
import type { Delta } from "./delta.js";

function overlaps(a: Iterable<string>, b: Iterable<string>): boolean {
  const set = new Set(a);
  for (const x of b) if (set.has(x)) return true;
  return false;
}

function pairKeys(d: Delta & { kind: "similarity" }): string[] {
  return d.updates.map((u) => (u.a < u.b ? `${u.a}\u0000${u.b}` : `${u.b}\u0000${u.a}`));
}

function edgeKeys(edges: readonly { from: string; to: string }[]): string[] {
  return edges.map((e) => `${e.from}\u0000${e.to}`);
}

/** Symmetric conflict test; composites are decomposed on both sides. */
export function deltasConflict(d: Delta, o: Delta): boolean {
  if (d.kind === "composite") return d.deltas.some((c) => deltasConflict(c, o));
  if (o.kind === "composite") return o.deltas.some((c) => deltasConflict(d, c));
  if (d.kind !== o.kind) return d.kind === "analytics" || o.kind === "analytics" ? proofOverlapWithAnalytics(d, o) : false;
  switch (d.kind) {
    case "proof":
      return overlaps(
        d.updates.map((u) => u.nodeId),
        (o as typeof d).updates.map((u) => u.nodeId),
      );
    case "constraint": {
      const p = o as typeof d;
      const touched = (x: typeof d): string[] => [...x.add.map((c) => c.id), ...x.remove, ...x.update.map((c) => c.id)];
      return overlaps(touched(d), touched(p));
    }
    case "similarity":
      return overlaps(pairKeys(d), pairKeys(o as typeof d));
    case "dependency": {
      const p = o as typeof d;
      // Opposite added edges close a two-node cycle, so only the first applied succeeds.
      const reversed = (edges: typeof d.add): string[] => edgeKeys(edges.map((e) => ({ from: e.to, to: e.from })));
      return (
        overlaps(edgeKeys(d.add), edgeKeys(p.remove)) ||
        overlaps(edgeKeys(d.remove), edgeKeys(p.add)) ||
        overlaps(edgeKeys(d.remove), edgeKeys(p.remove)) ||
        overlaps(edgeKeys(d.add), reversed(p.add))
      );
    }
    case "history": {
      const p = o as typeof d;
      return overlaps(
        d.entries.map((e) => e.id),
        p.entries.map((e) => e.id),
      );
    }
    case "streaming":
      return false;
    case "analytics":
      return d.record.queryType === (o as typeof d).record.queryType;
  }
}

function proofOverlapWithAnalytics(d: Delta, o: Delta): boolean {
  const [a, p] = d.kind === "analytics" ? [d, o] : [o, d];
  if (a.kind !== "analytics" || p.kind !== "proof") return false;
  // Exactly the run's markers: a query type may contain `:`, so a prefix would also match another type's markers.
  const markers = [analyticsDoneKey(a.record.queryType), analyticsFoundKey(a.record.queryType)];
  return p.updates.some((u) => markers.includes(u.nodeId));
}
