/**
 * Similarity index: symmetric distances between node pairs, stored once per canonical pair
 * and reachable from both ends so nearest-neighbour queries cost O(degree).
 */

import { Map as IMap } from "immutable";
import { compareUtf8 } from "../bytes.js";
import { invalidArgument, StateError } from "../errors.js";

/** Persistent similarity state. */
export interface SimilarityIndex {
  /** node -> neighbour -> distance, symmetric. */
  readonly adjacency: IMap<string, IMap<string, number>>;
  /** Number of distinct canonical pairs. */
  readonly pairCount: number;
}

/** A canonical pair, `from` < `to` byte-wise. */
export interface SimilarityPair {
  /** Smaller key. */
  readonly from: string;
  /** Larger key. */
  readonly to: string;
  /** Non-negative finite distance. */
  readonly distance: number;
}

/** A neighbour of a node and its distance. */
export interface Neighbor {
  /** Neighbour id. */
  readonly id: string;
  /** Distance to it. */
  readonly distance: number;
}

/** The empty index. */
export const EMPTY_SIMILARITY: SimilarityIndex = { adjacency: IMap(), pairCount: 0 };

/** Rejects empty keys, self pairs, and distances that are negative, NaN or infinite. */
export function validateSimilarityPair(a: string, b: string, distance: number, field: string): void {
  if (typeof a !== "string" || a === "") throw invalidArgument(fieldAt(field, "a"), "similarity keys must not be empty");
  if (typeof b !== "string" || b === "") throw invalidArgument(fieldAt(field, "b"), "similarity keys must not be empty");
  if (a === b) throw invalidArgument(fieldAt(field, "b"), `self-similarity not allowed: ${a}`);
  if (typeof distance !== "number" || !Number.isFinite(distance)) {
    throw invalidArgument(fieldAt(field, "distance"), `similarity distance must be a finite number: ${a}-${b}`);
  }
  if (distance < 0) throw invalidArgument(fieldAt(field, "distance"), `similarity distance cannot be negative: ${a}-${b}`);
}

// Not a closure inside validateSimilarityPair: that would be allocated for every pair stored.
function fieldAt(field: string, name: string): string {
  return field === "" ? name : `${field}.${name}`;
}

/** Distance between a and b, in either order, or undefined. */
export function getDistance(index: SimilarityIndex, a: string, b: string): number | undefined {
  return index.adjacency.get(a)?.get(b);
}

/**
 * Stores a distance. A new pair beyond `cap` fails with CAPACITY_EXCEEDED; updating an
 * existing pair always succeeds, whatever its stored value.
 */
export function setDistance(index: SimilarityIndex, a: string, b: string, distance: number, cap: number): SimilarityIndex {
  validateSimilarityPair(a, b, distance, "");
  const exists = getDistance(index, a, b) !== undefined;
  if (!exists && index.pairCount >= cap) {
    throw new StateError("CAPACITY_EXCEEDED", `similarity index is full (${cap} pairs); cannot add ${a}-${b}`, {
      metadata: { limit: String(cap) },
    });
  }
  const withA = index.adjacency.set(a, withNeighbor(index.adjacency.get(a), b, distance));
  const adjacency = withA.set(b, withNeighbor(withA.get(b), a, distance));
  return { adjacency, pairCount: exists ? index.pairCount : index.pairCount + 1 };
}

function withNeighbor(row: IMap<string, number> | undefined, id: string, distance: number): IMap<string, number> {
  return (row ?? IMap<string, number>()).set(id, distance);
}

/** The k nearest neighbours of `id`, by distance ascending, ties by id byte-wise. */
export function nearestNeighbors(index: SimilarityIndex, id: string, k: number): Neighbor[] {
  if (k <= 0) return [];
  const row = index.adjacency.get(id);
  if (row === undefined) return [];
  const all: Neighbor[] = [];
  for (const [other, distance] of row) all.push({ id: other, distance });
  all.sort((x, y) => x.distance - y.distance || compareUtf8(x.id, y.id));
  return all.slice(0, k);
}

/** Every canonical pair once, in no particular order: for callers that visit the pairs rather than list them. */
export function unorderedPairs(index: SimilarityIndex): SimilarityPair[] {
  const out: SimilarityPair[] = [];
  for (const [from, row] of index.adjacency) {
    for (const [to, distance] of row) if (compareUtf8(from, to) < 0) out.push({ from, to, distance });
  }
  return out;
}

/** Every canonical pair, sorted by (from, to) byte-wise. */
export function allPairs(index: SimilarityIndex): SimilarityPair[] {
  return unorderedPairs(index).sort((x, y) => compareUtf8(x.from, y.from) || compareUtf8(x.to, y.to));
}
