/**
 * Dependency index: directed edges "from depends on to", kept as real state with forward
 * and reverse adjacency so both directions answer in O(degree).
 */

import { Map as IMap, Set as ISet } from "immutable";
import { sortUtf8 } from "../bytes.js";

/** Persistent dependency graph. */
export interface DependencyIndex {
  /** from -> set of nodes it depends on. */
  readonly forward: IMap<string, ISet<string>>;
  /** to -> set of nodes depending on it. */
  readonly reverse: IMap<string, ISet<string>>;
  /** Number of edges. */
  readonly edgeCount: number;
}

/** One directed edge. */
export interface DependencyEdge {
  /** Dependent node. */
  readonly from: string;
  /** Dependency. */
  readonly to: string;
}

/** The empty graph. */
export const EMPTY_DEPENDENCY: DependencyIndex = { forward: IMap(), reverse: IMap(), edgeCount: 0 };

/** True when the edge exists. */
export function hasEdge(index: DependencyIndex, from: string, to: string): boolean {
  return index.forward.get(from)?.has(to) ?? false;
}

/** Adds an edge; a present edge leaves the index unchanged. */
export function addEdge(index: DependencyIndex, from: string, to: string): DependencyIndex {
  if (hasEdge(index, from, to)) return index;
  return {
    forward: index.forward.set(from, (index.forward.get(from) ?? ISet<string>()).add(to)),
    reverse: index.reverse.set(to, (index.reverse.get(to) ?? ISet<string>()).add(from)),
    edgeCount: index.edgeCount + 1,
  };
}

/** Removes an edge; an absent edge leaves the index unchanged. */
export function removeEdge(index: DependencyIndex, from: string, to: string): DependencyIndex {
  if (!hasEdge(index, from, to)) return index;
  const drop = (m: IMap<string, ISet<string>>, k: string, v: string): IMap<string, ISet<string>> => {
    const next = (m.get(k) ?? ISet<string>()).remove(v);
    return next.size === 0 ? m.remove(k) : m.set(k, next);
  };
  return { forward: drop(index.forward, from, to), reverse: drop(index.reverse, to, from), edgeCount: index.edgeCount - 1 };
}

/** Nodes `id` depends on, sorted byte-wise. */
export function dependsOn(index: DependencyIndex, id: string): string[] {
  return sortUtf8(index.forward.get(id) ?? []);
}

/** Nodes depending on `id`, sorted byte-wise. */
export function dependedBy(index: DependencyIndex, id: string): string[] {
  return sortUtf8(index.reverse.get(id) ?? []);
}

/**
 * True when `to` is reachable from `from` along forward edges (a node reaches itself). It searches
 * forward from `from` and backward from `to` together, each step expanding whichever next node
 * has fewer edges to follow, and stops when either side runs out: a path would have led that side
 * to a node the other has seen. Checking an edge that extends a chain (or joins a fan) at its
 * open end therefore costs a step or two, where a forward search alone walked everything below
 * the edge each time, making a chain built or replayed edge by edge quadratic.
 */
export function reaches(index: DependencyIndex, from: string, to: string): boolean {
  if (from === to) return true;
  const ahead = new Set<string>([from]);
  const behind = new Set<string>([to]);
  const forward = [from];
  const backward = [to];
  while (forward.length > 0 && backward.length > 0) {
    const down = index.forward.get(forward.at(-1) as string);
    const up = index.reverse.get(backward.at(-1) as string);
    if ((down?.size ?? 0) <= (up?.size ?? 0)) {
      forward.pop();
      for (const next of down ?? []) {
        if (behind.has(next)) return true;
        if (!ahead.has(next)) {
          ahead.add(next);
          forward.push(next);
        }
      }
    } else {
      backward.pop();
      for (const prev of up ?? []) {
        if (ahead.has(prev)) return true;
        if (!behind.has(prev)) {
          behind.add(prev);
          backward.push(prev);
        }
      }
    }
  }
  return false;
}

/** True when `id` lies on a directed cycle. */
export function onCycle(index: DependencyIndex, id: string): boolean {
  for (const next of index.forward.get(id) ?? []) if (reaches(index, next, id)) return true;
  return false;
}

/** Every edge sorted by (from, to) byte-wise. */
export function allEdges(index: DependencyIndex): DependencyEdge[] {
  const out: DependencyEdge[] = [];
  for (const from of sortUtf8(index.forward.keys())) {
    for (const to of sortUtf8(index.forward.get(from) ?? [])) out.push({ from, to });
  }
  return out;
}
