import type { MessageInitShape } from "@bufbuild/protobuf";
import type { IndexSizeSchema, ProjectStateSchema, StreamingSummarySchema } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { compareUtf8, type Snapshot } from "@crs/domain/state";
import { configOut } from "./config-mapper.js";
import { INDEX_KINDS } from "./enum-mapper.js";
import { analyticsOut, clauseOut, constraintOut, edgeOut, historyEntryOut, proofEntryOut, similarityOut, stepOut } from "./value-mapper.js";

/** Number of retained steps over every session. */
function stepCount(snapshot: Snapshot): number {
  return snapshot.steps.sessions().reduce((n, sid) => n + snapshot.steps.history(sid).length, 0);
}

/** Entry counts of every index, in IndexKind order; streaming counts distinct items (estimated). */
export function indexSizesOut(snapshot: Snapshot): MessageInitShape<typeof IndexSizeSchema>[] {
  const sizes: [number, number][] = [
    [INDEX_KINDS.proof, snapshot.proof.size()],
    [INDEX_KINDS.constraint, snapshot.constraints.size()],
    [INDEX_KINDS.similarity, snapshot.similarity.size()],
    [INDEX_KINDS.dependency, snapshot.dependency.size()],
    [INDEX_KINDS.history, snapshot.history.size()],
    [INDEX_KINDS.streaming, Math.round(snapshot.streaming.cardinality())],
    [INDEX_KINDS.clause, snapshot.constraints.clauseCount()],
    [INDEX_KINDS.step, stepCount(snapshot)],
    [INDEX_KINDS.analytics, snapshot.analytics.all().length],
  ];
  return sizes.map(([index, entries]) => ({ index, entries: BigInt(entries) }));
}

/** The streaming sketches' summary: total, cardinality estimate and error bounds. */
export function streamingSummaryOut(snapshot: Snapshot): MessageInitShape<typeof StreamingSummarySchema> {
  const bounds = snapshot.streaming.errorBounds();
  return {
    total: BigInt(snapshot.state.streaming.frequency.total),
    cardinalityEstimate: BigInt(Math.round(snapshot.streaming.cardinality())),
    frequencyAdditiveError: bounds.frequencyAdditive,
    frequencyErrorProbability: bounds.frequencyDelta,
    cardinalityStandardError: bounds.cardinalityStandardError,
  };
}

/** The whole content of a snapshot, every list in its documented order, with the limits in force at its generation. */
export function projectStateOut(snapshot: Snapshot): MessageInitShape<typeof ProjectStateSchema> {
  return {
    proofs: snapshot.proof.all().map((e) => proofEntryOut(snapshot, e.nodeId, e)),
    constraints: snapshot.constraints.all().map((c) => constraintOut(snapshot, c)),
    similarities: snapshot.similarity.allPairs().pairs.map((p) => similarityOut(snapshot, p.from, p.to, p.distance)),
    dependencies: snapshot.dependency.allEdges().map(edgeOut),
    history: snapshot.history.recent(snapshot.history.size()).map(historyEntryOut),
    streaming: streamingSummaryOut(snapshot),
    clauses: snapshot.constraints
      .allClauses()
      .sort((a, b) => a.learnedAt - b.learnedAt || compareUtf8(a.id, b.id))
      .map((c) => clauseOut(snapshot, c)),
    steps: snapshot.steps.sessions().flatMap((sid) => snapshot.steps.history(sid).map(stepOut)),
    analytics: snapshot.analytics.all().map(analyticsOut),
    config: configOut(snapshot.state.config),
  };
}
