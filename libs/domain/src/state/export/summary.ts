/** Summary of a state and the reference-shaped export document built on it. */

import type { ProjectState } from "../project-state.js";
import { allEdges } from "../dependency/dependency-index.js";
import { allPairs } from "../similarity/similarity-index.js";
import { sortUtf8 } from "../bytes.js";
import { streamingBytes, streamingCardinality } from "../streaming/streaming-index.js";
import { rfc3339 } from "../../go-time.js";

export { rfc3339 };

/** Exploration summary. */
export interface StateSummary {
  /** Proof entries. */
  readonly nodes_explored: number;
  /** Proven entries. */
  readonly nodes_proven: number;
  /** Disproven entries. */
  readonly nodes_disproven: number;
  /** Every other status. */
  readonly nodes_unknown: number;
  /** Constraints, active or not. */
  readonly constraints_applied: number;
  /** History entries retained. */
  readonly exploration_depth: number;
  /** proven / explored, or 0. */
  readonly confidence_score: number;
}

/** Counts proof statuses, constraints and history. */
export function computeSummary(state: ProjectState): StateSummary {
  let proven = 0;
  let disproven = 0;
  for (const p of state.proofs.values()) {
    if (p.status === "proven") proven++;
    else if (p.status === "disproven") disproven++;
  }
  const explored = state.proofs.size;
  return {
    nodes_explored: explored,
    nodes_proven: proven,
    nodes_disproven: disproven,
    nodes_unknown: explored - proven - disproven,
    constraints_applied: state.constraints.size,
    exploration_depth: state.history.entries.size,
    confidence_score: explored === 0 ? 0 : proven / explored,
  };
}

/**
 * The reference's export shape (snake_case, uint64 as decimal strings, RFC 3339 times),
 * for consumers of the old format. Similarity values are distances and may exceed 1.
 */
export function referenceExport(state: ProjectState, sessionId: string, timestamp: number): Record<string, unknown> {
  return {
    session_id: sessionId,
    generation: state.generation,
    timestamp,
    indexes: {
      proof: {
        entries: sortUtf8(state.proofs.keys()).map((id) => {
          const p = state.proofs.get(id)!;
          return {
            node_id: id,
            proof: p.proof.toString(),
            disproof: p.disproof.toString(),
            status: p.status,
            source: p.source,
            updated_at: rfc3339(p.updatedAt),
          };
        }),
      },
      constraint: {
        constraints: sortUtf8(state.constraints.keys()).map((id) => {
          const c = state.constraints.get(id)!;
          return {
            id,
            type: c.type,
            nodes: [...c.nodes],
            ...(c.expression === "" ? {} : { expression: c.expression }),
            active: c.active,
            source: c.source,
            created_at: rfc3339(c.createdAt),
          };
        }),
      },
      similarity: {
        pair_count: state.similarity.pairCount,
        pairs: allPairs(state.similarity).map((p) => ({ from_id: p.from, to_id: p.to, similarity: p.distance })),
      },
      dependency: {
        edge_count: state.dependency.edgeCount,
        edges: allEdges(state.dependency).map((e) => ({ from_id: e.from, to_id: e.to })),
        source: "state",
      },
      history: {
        entry_count: state.history.entries.size,
        recent_entries: state.history.entries
          .takeLast(100)
          .toArray()
          .map((h) => ({
            id: h.id,
            node_id: h.nodeId,
            action: h.action,
            result: h.result,
            source: h.source,
            timestamp: h.timestamp,
            metadata: h.metadata,
          })),
      },
      streaming: { cardinality: streamingCardinality(state.streaming), approximate_bytes: streamingBytes(state.streaming) },
    },
    summary: computeSummary(state),
  };
}
