/** Cross-index queries over one state. Every list has a documented, deterministic order. */

import { compareUtf8, sortUtf8 } from "../bytes.js";
import type { Constraint, ConstraintType } from "../constraints/constraint.js";
import { dependedBy, dependsOn, onCycle } from "../dependency/dependency-index.js";
import type { HistoryEntry } from "../history/history-index.js";
import type { ProofNumber } from "../proof/proof-number.js";
import type { ProjectState } from "../project-state.js";
import type { ProofStatus, SignalSource } from "../signals.js";
import { getDistance, nearestNeighbors, type Neighbor } from "../similarity/similarity-index.js";
import { streamingEstimate } from "../streaming/streaming-index.js";

/** A node and its estimated access frequency. */
export interface HotNode {
  /** Node id. */
  readonly nodeId: string;
  /** Estimated frequency. */
  readonly frequency: number;
}

/** Everything known about one node. */
export interface NodeStats {
  /** Node id. */
  readonly nodeId: string;
  /** Proof value, if any. */
  readonly proof: ProofNumber | undefined;
  /** Ids of constraints naming the node, sorted. */
  readonly constraintIds: readonly string[];
  /** Number of similarity neighbours. */
  readonly similarNodeCount: number;
  /** Closest neighbour, if any. */
  readonly nearestNeighbor: Neighbor | undefined;
  /** Out-degree in the dependency graph. */
  readonly dependsOnCount: number;
  /** In-degree in the dependency graph. */
  readonly dependedByCount: number;
  /** True when the node lies on a dependency cycle. */
  readonly hasCycle: boolean;
  /** History entries about the node. */
  readonly historyEntryCount: number;
  /** Latest history entry about the node. */
  readonly lastAction: HistoryEntry | undefined;
  /** Estimated access frequency. */
  readonly accessFrequency: number;
}

/** Queries over one immutable state. */
export class QueryAPI {
  /** Wraps a state; the state never changes, so answers are stable. */
  constructor(private readonly state: ProjectState) {}

  private withStatus(pred: (s: ProofStatus) => boolean): string[] {
    const out: string[] = [];
    for (const [id, p] of this.state.proofs) if (pred(p.status)) out.push(id);
    return out.sort(compareUtf8);
  }

  /** Proven nodes, sorted byte-wise. */
  findProvenNodes(): string[] {
    return this.withStatus((s) => s === "proven");
  }

  /** Disproven nodes, sorted byte-wise. */
  findDisprovenNodes(): string[] {
    return this.withStatus((s) => s === "disproven");
  }

  /** Nodes with status unknown or expanded, sorted byte-wise. */
  findUnexploredNodes(): string[] {
    return this.withStatus((s) => s === "unknown" || s === "expanded");
  }

  /** Nodes with min <= proof <= max, by proof ascending, then id byte-wise. */
  findByProofRange(min: bigint, max: bigint): string[] {
    const hits: [string, bigint][] = [];
    for (const [id, p] of this.state.proofs) if (p.proof >= min && p.proof <= max) hits.push([id, p.proof]);
    return hits.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : compareUtf8(a[0], b[0]))).map(([id]) => id);
  }

  /** Nodes named by constraints of `type` ("unknown" = every constraint), sorted byte-wise. */
  findConstrainedNodes(type: ConstraintType): string[] {
    const out = new Set<string>();
    for (const c of this.state.constraints.values()) if (type === "unknown" || c.type === type) for (const n of c.nodes) out.add(n);
    return sortUtf8(out);
  }

  /** Active constraints with at least one disproven node, by id. */
  findViolatedConstraints(): Constraint[] {
    return [...this.state.constraints.values()]
      .filter((c) => c.active && c.nodes.some((n) => this.state.proofs.get(n)?.status === "disproven"))
      .sort((a, b) => compareUtf8(a.id, b.id));
  }

  /** Up to k nearest neighbours of `id` whose proof status is `status`, nearest first. */
  findSimilarWithProofStatus(id: string, status: ProofStatus, k: number): Neighbor[] {
    if (k <= 0) return [];
    const all = nearestNeighbors(this.state.similarity, id, this.state.similarity.adjacency.get(id)?.size ?? 0);
    return all.filter((n) => this.state.proofs.get(n.id)?.status === status).slice(0, k);
  }

  /** Shortest dependency path from a to b inclusive (neighbours tried byte-wise); empty when none. */
  findDependencyChain(a: string, b: string): string[] {
    if (a === b) return [a];
    const parent = new Map<string, string>([[a, a]]);
    let frontier = [a];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const cur of frontier) {
        for (const dep of dependsOn(this.state.dependency, cur)) {
          if (parent.has(dep)) continue;
          parent.set(dep, cur);
          if (dep === b) {
            const path = [b];
            while (path[0] !== a) path.unshift(parent.get(path[0] as string) as string);
            return path;
          }
          next.push(dep);
        }
      }
      frontier = next;
    }
    return [];
  }

  /** Every node that transitively depends on `id`, sorted; `id` itself only if on a cycle. */
  findAffectedByNode(id: string): string[] {
    const seen = new Set<string>();
    const stack = [id];
    while (stack.length > 0) {
      for (const p of dependedBy(this.state.dependency, stack.pop() as string)) {
        if (!seen.has(p)) {
          seen.add(p);
          stack.push(p);
        }
      }
    }
    return sortUtf8(seen);
  }

  /** Every node id any index knows, sorted byte-wise. */
  knownNodes(): string[] {
    const s = this.state;
    const out = new Set<string>(s.proofs.keys());
    for (const c of s.constraints.values()) for (const n of c.nodes) out.add(n);
    for (const id of s.similarity.adjacency.keys()) out.add(id);
    for (const id of s.dependency.forward.keys()) out.add(id);
    for (const id of s.dependency.reverse.keys()) out.add(id);
    for (const e of s.history.entries) if (e.nodeId !== "") out.add(e.nodeId);
    return sortUtf8(out);
  }

  /** Top n known nodes by estimated frequency (> 0), descending, ties by id byte-wise. */
  findHotNodes(n: number): HotNode[] {
    if (n <= 0) return [];
    return this.knownNodes()
      .map((nodeId) => ({ nodeId, frequency: streamingEstimate(this.state.streaming, nodeId) }))
      .filter((h) => h.frequency > 0)
      .sort((a, b) => b.frequency - a.frequency || compareUtf8(a.nodeId, b.nodeId))
      .slice(0, n);
  }

  /** The last n history entries (optionally from one source) over the whole history, oldest first. */
  findRecentDecisions(n: number, source: SignalSource = "unknown"): HistoryEntry[] {
    if (n <= 0) return [];
    const out: HistoryEntry[] = [];
    const entries = this.state.history.entries;
    for (let i = entries.size - 1; i >= 0 && out.length < n; i--) {
      const e = entries.get(i) as HistoryEntry;
      if (source === "unknown" || e.source === source) out.push(e);
    }
    return out.reverse();
  }

  /** Distance between two nodes, if recorded. */
  distance(a: string, b: string): number | undefined {
    return getDistance(this.state.similarity, a, b);
  }

  /** Statistics for one node, or undefined when no index knows it. */
  nodeStats(id: string): NodeStats | undefined {
    const s = this.state;
    const constraintIds = [...s.constraints.values()]
      .filter((c) => c.nodes.includes(id))
      .map((c) => c.id)
      .sort(compareUtf8);
    const neighbors = nearestNeighbors(s.similarity, id, 10);
    const trace = s.history.entries.filter((e) => e.nodeId === id);
    const stats: NodeStats = {
      nodeId: id,
      proof: s.proofs.get(id),
      constraintIds,
      similarNodeCount: neighbors.length,
      nearestNeighbor: neighbors[0],
      dependsOnCount: s.dependency.forward.get(id)?.size ?? 0,
      dependedByCount: s.dependency.reverse.get(id)?.size ?? 0,
      hasCycle: onCycle(s.dependency, id),
      historyEntryCount: trace.size,
      lastAction: trace.last(),
      accessFrequency: streamingEstimate(s.streaming, id),
    };
    const known =
      stats.proof !== undefined ||
      constraintIds.length > 0 ||
      stats.similarNodeCount > 0 ||
      stats.dependsOnCount > 0 ||
      stats.dependedByCount > 0 ||
      stats.historyEntryCount > 0 ||
      stats.accessFrequency > 0;
    return known ? stats : undefined;
  }
}
