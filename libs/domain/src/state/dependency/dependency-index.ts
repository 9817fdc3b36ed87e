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

/** True when `to` is reachable from `from` along forward edges (a node reaches itself). */
export function reaches(index: DependencyIndex, from: string, to: string): boolean {
  if (from === to) return true;
  const seen = new Set<string>([from]);
  const stack = [from];
  while (stack.length > 0) {
    const cur = stack.pop() as string;
    for (const next of index.forward.get(cur) ?? []) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
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
