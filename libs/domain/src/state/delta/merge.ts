/**
 * Merging deltas. Sources never upgrade: a merged delta is as weak as its weakest input,
 * and proof entries keep their own sources, so merging cannot smuggle a soft hard-action past
 * validation.
 */

import { compareUtf8 } from "../bytes.js";
import { StateError } from "../errors.js";
import { deltasConflict } from "./conflict.js";
import { weakerSource } from "../signals.js";
import type { ConstraintDelta, Delta, ProofDelta, ProofEntry, SimilarityDelta } from "./delta.js";

function pairKey(a: string, b: string): string {
  return compareUtf8(a, b) <= 0 ? JSON.stringify([a, b]) : JSON.stringify([b, a]);
}

function mergeProof(d: ProofDelta, o: ProofDelta): ProofDelta {
  const byNode = new Map<string, ProofEntry>(d.updates.map((u) => [u.nodeId, u]));
  for (const u of o.updates) {
    const mine = byNode.get(u.nodeId);
    // The newer value wins; a tie keeps the receiver's.
    if (mine === undefined || u.updatedAt > mine.updatedAt) byNode.set(u.nodeId, u);
  }
  return { kind: "proof", source: weakerSource(d.source, o.source), updates: [...byNode.values()] };
}

function mergeConstraint(d: ConstraintDelta, o: ConstraintDelta): ConstraintDelta {
  const update = new Map(d.update.map((c) => [c.id, c]));
  for (const c of o.update) update.set(c.id, c);
  return {
    kind: "constraint",
    source: weakerSource(d.source, o.source),
    add: [...d.add, ...o.add],
    remove: [...new Set([...d.remove, ...o.remove])].sort(compareUtf8),
    update: [...update.values()],
  };
}

function mergeSimilarity(d: SimilarityDelta, o: SimilarityDelta): SimilarityDelta {
  // Canonical keys: a pair given in either order is the same pair, and the later delta wins.
  const byPair = new Map(d.updates.map((u) => [pairKey(u.a, u.b), u]));
  for (const u of o.updates) byPair.set(pairKey(u.a, u.b), u);
  return { kind: "similarity", source: weakerSource(d.source, o.source), updates: [...byPair.values()] };
}

/** Combines two deltas into one; different kinds become a composite of both. */
export function mergeDeltas(d: Delta, o: Delta): Delta {
  if (d.kind === "composite") return { kind: "composite", deltas: [...d.deltas, ...(o.kind === "composite" ? o.deltas : [o])] };
  if (d.kind !== o.kind) return { kind: "composite", deltas: [d, o] };
  switch (d.kind) {
    case "proof":
      return mergeProof(d, o as ProofDelta);
    case "constraint":
      return mergeConstraint(d, o as ConstraintDelta);
    case "similarity":
      return mergeSimilarity(d, o as SimilarityDelta);
    case "dependency": {
      const p = o as typeof d;
      return {
        kind: "dependency",
        source: weakerSource(d.source, p.source),
        add: [...d.add, ...p.add],
        remove: [...d.remove, ...p.remove],
      };
    }
    case "history": {
      const p = o as typeof d;
      return { kind: "history", source: weakerSource(d.source, p.source), entries: [...d.entries, ...p.entries] };
    }
    case "streaming": {
      const p = o as typeof d;
      const counts = new Map<string, number>();
      for (const inc of [...d.increments, ...p.increments]) counts.set(inc.item, (counts.get(inc.item) ?? 0) + inc.count);
      return {
        kind: "streaming",
        source: weakerSource(d.source, p.source),
        increments: [...counts].map(([item, count]) => ({ item, count })),
        observed: [...d.observed, ...p.observed],
      };
    }
    case "analytics":
      return { kind: "composite", deltas: [d, o] };
  }
}

/** Like {@link mergeDeltas}, but DELTA_CONFLICT when the two deltas touch the same entries. */
export function mergeDeltasStrict(d: Delta, o: Delta): Delta {
  if (deltasConflict(d, o))
    throw new StateError("DELTA_CONFLICT", "delta conflict detected: the deltas touch the same entries", { field: "delta" });
  return mergeDeltas(d, o);
}
