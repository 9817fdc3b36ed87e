import type { MessageInitShape } from "@bufbuild/protobuf";
import type {
  AnalyticsRecordSchema,
  ClauseSchema,
  ConstraintSchema,
  DependencyEdgeSchema,
  HistoryEntrySchema,
  ProofEntrySchema,
  ProofNumberSchema,
  SimilarityPairSchema,
  StepRecordSchema,
} from "@crs/contracts/gen/crs/state/v1/types_pb";
import type {
  AnalyticsRecord,
  Clause,
  Constraint,
  DependencyEdge,
  HistoryEntry,
  ProofNumber,
  Snapshot,
  StepRecord,
} from "@crs/domain/state";
import { constraintTypes, scopeToProto, sources, statuses } from "./enum-mapper.js";

/** Generation that last changed an entry, as read from a snapshot (0 when absent). */
export function modGeneration(snapshot: Snapshot, index: "proof" | "constraint" | "clause" | "similarity", key: string): bigint {
  return BigInt(snapshot.modGeneration(index, key));
}

/** A proof number on the wire, with the generation that last wrote it. */
export function proofNumberOut(p: ProofNumber, mod: bigint): MessageInitShape<typeof ProofNumberSchema> {
  return {
    proof: p.proof,
    disproof: p.disproof,
    status: statuses.toProto(p.status),
    source: sources.toProto(p.source),
    updatedAtUnixMs: BigInt(p.updatedAt),
    modGeneration: mod,
  };
}

/** A node's proof entry on the wire, read from `snapshot`. */
export function proofEntryOut(snapshot: Snapshot, nodeId: string, p: ProofNumber): MessageInitShape<typeof ProofEntrySchema> {
  return { nodeId, value: proofNumberOut(p, modGeneration(snapshot, "proof", nodeId)) };
}

/** A constraint's own fields on the wire (as carried in a delta, without a mod generation). */
export function constraintFields(c: Constraint): MessageInitShape<typeof ConstraintSchema> {
  return {
    id: c.id,
    type: constraintTypes.toProto(c.type),
    nodes: [...c.nodes],
    expression: c.expression,
    active: c.active,
    source: sources.toProto(c.source),
    createdAtUnixMs: BigInt(c.createdAt),
  };
}

/** A stored constraint on the wire, with the generation that last wrote it, read from `snapshot`. */
export function constraintOut(snapshot: Snapshot, c: Constraint): MessageInitShape<typeof ConstraintSchema> {
  return { ...constraintFields(c), modGeneration: modGeneration(snapshot, "constraint", c.id) };
}

/** A history entry on the wire. */
export function historyEntryOut(e: HistoryEntry): MessageInitShape<typeof HistoryEntrySchema> {
  return {
    id: e.id,
    nodeId: e.nodeId,
    action: e.action,
    result: e.result,
    source: sources.toProto(e.source),
    timestampUnixMs: BigInt(e.timestamp),
    metadata: { ...e.metadata },
  };
}

/** A dependency edge on the wire. */
export function edgeOut(e: DependencyEdge): MessageInitShape<typeof DependencyEdgeSchema> {
  return { fromId: e.from, toId: e.to };
}

/** A canonical similarity pair on the wire, read from `snapshot`. */
export function similarityOut(snapshot: Snapshot, a: string, b: string, distance: number): MessageInitShape<typeof SimilarityPairSchema> {
  return { a, b, distance, modGeneration: modGeneration(snapshot, "similarity", JSON.stringify([a, b])) };
}

/** A learned clause on the wire, read from `snapshot`. */
export function clauseOut(snapshot: Snapshot, c: Clause): MessageInitShape<typeof ClauseSchema> {
  return {
    id: c.id,
    literals: c.literals.map((l) => ({ variable: l.variable, negated: l.negated })),
    source: sources.toProto(c.source),
    learnedAtUnixMs: BigInt(c.learnedAt),
    failureType: c.failureType,
    sessionId: c.sessionId,
    useCount: BigInt(c.useCount),
    lastUsedAtUnixMs: BigInt(c.lastUsed),
    scope: scopeToProto(c.scope),
    refreshedAtUnixMs: BigInt(c.refreshedAt),
    modGeneration: modGeneration(snapshot, "clause", c.id),
  };
}

/** A step record on the wire. */
export function stepOut(s: StepRecord): MessageInitShape<typeof StepRecordSchema> {
  return {
    stepNumber: BigInt(s.stepNumber),
    timestampUnixMs: BigInt(s.timestamp),
    sessionId: s.sessionId,
    actor: s.actor,
    decision: s.decision,
    tool: s.tool,
    outcome: s.outcome,
    errorCategory: s.errorCategory,
    errorMessage: s.errorMessage,
    confidence: s.confidence,
    durationMs: s.durationMs,
    reasoning: s.reasoning,
    resultSummary: s.resultSummary,
    metadata: { ...s.metadata },
  };
}

/** An analytics record on the wire. */
export function analyticsOut(r: AnalyticsRecord): MessageInitShape<typeof AnalyticsRecordSchema> {
  return {
    id: r.id,
    queryType: r.queryType,
    queryTimeUnixMs: BigInt(r.queryTime),
    params: { ...r.params },
    resultCount: BigInt(r.resultCount),
    results: [...r.results],
    cycles: r.cycles.map((c) => ({ values: [...c] })),
    path: [...r.path],
    executionMs: BigInt(Math.round(r.executionMs)),
  };
}
