/** Read-only views of the indexes of one state value; methods live on prototypes so creating a view is cheap. */

import { lastAnalytics, type AnalyticsRecord } from "./analytics/analytics-record.js";
import { allClauses, checkAssignment, type ClauseCheckResult } from "./clauses/clause-store.js";
import type { Assignment, Clause } from "./clauses/clause.js";
import { compareUtf8 } from "./bytes.js";
import type { Constraint, ConstraintType } from "./constraints/constraint.js";
import { deltaByGeneration, deltaRange, deltasByNode, explainNode, type DeltaRecord } from "./delta-history/delta-record.js";
import { allEdges, dependedBy, dependsOn, onCycle, type DependencyEdge } from "./dependency/dependency-index.js";
import { recentHistory, traceNode, type HistoryEntry } from "./history/history-index.js";
import type { ProofEntry } from "./delta/delta.js";
import type { ProofNumber } from "./proof/proof-number.js";
import { StateError } from "./errors.js";
import type { ProjectState } from "./project-state.js";
import { allPairs, getDistance, nearestNeighbors, type Neighbor, type SimilarityPair } from "./similarity/similarity-index.js";
import type { Actor, Outcome, StepRecord } from "./steps/step-record.js";
import { countToolExecutions, lastStep, stepHistory, stepsByActor, stepsByOutcome } from "./steps/step-store.js";
import { countMinErrorBound } from "./streaming/count-min.js";
import { hyperLogLogStandardError } from "./streaming/hyperloglog.js";
import { streamingBytes, streamingCardinality, streamingEstimate } from "./streaming/streaming-index.js";

/** Pairs capped at a maximum, with a flag when more existed. */
export interface PairsPage {
  /** Canonical pairs by (from, to). */
  readonly pairs: SimilarityPair[];
  /** True when at least one more pair existed beyond the cap. */
  readonly truncated: boolean;
}

/** Proof index view. */
export class ProofView {
  /** Wraps one state value. */
  constructor(private readonly state: ProjectState) {}

  /** Value of a node, if present. */
  get(id: string): ProofNumber | undefined {
    return this.state.proofs.get(id);
  }

  /** Value of a node; NODE_NOT_FOUND when absent. */
  require(id: string): ProofNumber {
    const value = this.state.proofs.get(id);
    if (value === undefined) throw new StateError("NODE_NOT_FOUND", `node ${id} not found`, { field: "nodeId" });
    return value;
  }

  /** Every entry, by node id byte-wise. */
  all(): ProofEntry[] {
    return [...this.state.proofs].sort((a, b) => compareUtf8(a[0], b[0])).map(([nodeId, p]) => ({ nodeId, ...p }));
  }

  /** Number of entries. */
  size(): number {
    return this.state.proofs.size;
  }
}

/** Constraint and clause view. */
export class ConstraintView {
  /** Wraps one state value. */
  constructor(private readonly state: ProjectState) {}

  /** Constraint by id. */
  get(id: string): Constraint | undefined {
    return this.state.constraints.get(id);
  }

  /** Every constraint, by id. */
  all(): Constraint[] {
    return [...this.state.constraints.values()].sort((a, b) => compareUtf8(a.id, b.id));
  }

  /** Number of constraints. */
  size(): number {
    return this.state.constraints.size;
  }

  /** Constraints of a type, by id. */
  findByType(t: ConstraintType): Constraint[] {
    return this.all().filter((c) => c.type === t);
  }

  /** Constraints naming a node, by id. */
  findByNode(n: string): Constraint[] {
    return this.all().filter((c) => c.nodes.includes(n));
  }

  /** Clause by id, as stored: one whose TTL has passed is listed until collected. */
  getClause(id: string): Clause | undefined {
    return this.state.clauses.clauses.get(id);
  }

  /** Every clause, by id. */
  allClauses(): Clause[] {
    return allClauses(this.state.clauses);
  }

  /** Number of clauses. */
  clauseCount(): number {
    return this.state.clauses.clauses.size;
  }

  /** Checks an assignment at `at` (Unix ms) without recording usage: a clause whose TTL has passed by then does not bind. */
  checkAssignment(a: Assignment, at: number): ClauseCheckResult {
    return checkAssignment(this.state.clauses, a, { at, ttlMs: this.state.config.clauseTtlMs });
  }
}

/** Similarity view. */
export class SimilarityView {
  /** Wraps one state value. */
  constructor(private readonly state: ProjectState) {}

  /** Distance in either order, if recorded. */
  distance(a: string, b: string): number | undefined {
    return getDistance(this.state.similarity, a, b);
  }

  /** k nearest neighbours, by distance then id. */
  nearestNeighbors(id: string, k: number): Neighbor[] {
    return nearestNeighbors(this.state.similarity, id, k);
  }

  /** Number of canonical pairs. */
  size(): number {
    return this.state.similarity.pairCount;
  }

  /** Canonical pairs, capped at `max` (<= 0 means no cap). */
  allPairs(max = 0): PairsPage {
    const pairs = allPairs(this.state.similarity);
    if (max <= 0 || pairs.length <= max) return { pairs, truncated: false };
    return { pairs: pairs.slice(0, max), truncated: true };
  }
}

/** Dependency view. */
export class DependencyView {
  /** Wraps one state value. */
  constructor(private readonly state: ProjectState) {}

  /** Nodes `id` depends on, sorted. */
  dependsOn(id: string): string[] {
    return dependsOn(this.state.dependency, id);
  }

  /** Nodes depending on `id`, sorted. */
  dependedBy(id: string): string[] {
    return dependedBy(this.state.dependency, id);
  }

  /** True when `id` lies on a cycle. */
  hasCycle(id: string): boolean {
    return onCycle(this.state.dependency, id);
  }

  /** Number of edges. */
  size(): number {
    return this.state.dependency.edgeCount;
  }

  /** Every edge by (from, to). */
  allEdges(): DependencyEdge[] {
    return allEdges(this.state.dependency);
  }
}

/** History view. */
export class HistoryView {
  /** Wraps one state value. */
  constructor(private readonly state: ProjectState) {}

  /** Entries about a node, oldest first. */
  trace(node: string): HistoryEntry[] {
    return traceNode(this.state.history, node);
  }

  /** Last n entries, oldest first. */
  recent(n: number): HistoryEntry[] {
    return recentHistory(this.state.history, n);
  }

  /** Number of retained entries. */
  size(): number {
    return this.state.history.entries.size;
  }
}

/** Streaming view. */
export class StreamingView {
  /** Wraps one state value. */
  constructor(private readonly state: ProjectState) {}

  /** Estimated frequency (never below the truth). */
  estimate(item: string): number {
    return streamingEstimate(this.state.streaming, item);
  }

  /** Estimated number of distinct items. */
  cardinality(): number {
    return streamingCardinality(this.state.streaming);
  }

  /** Fixed memory footprint in bytes. */
  sizeBytes(): number {
    return streamingBytes(this.state.streaming);
  }

  /** Stated error bounds of both sketches. */
  errorBounds(): { frequencyEpsilon: number; frequencyDelta: number; frequencyAdditive: number; cardinalityStandardError: number } {
    const cm = countMinErrorBound(this.state.streaming.frequency);
    return {
      frequencyEpsilon: cm.epsilon,
      frequencyDelta: cm.delta,
      frequencyAdditive: cm.additive,
      cardinalityStandardError: hyperLogLogStandardError(this.state.streaming.cardinality),
    };
  }
}

/** Step view. */
export class StepView {
  /** Wraps one state value. */
  constructor(private readonly state: ProjectState) {}

  /** Steps of a session, insertion order. */
  history(sid: string): StepRecord[] {
    return stepHistory(this.state.steps, sid);
  }

  /** Last step of a session. */
  last(sid: string): StepRecord | undefined {
    return lastStep(this.state.steps, sid);
  }

  /** execute_tool count of a tool in a session. */
  countToolExecutions(sid: string, tool: string): number {
    return countToolExecutions(this.state.steps, sid, tool);
  }

  /** Steps by actor, insertion order. */
  byActor(sid: string, actor: Actor): StepRecord[] {
    return stepsByActor(this.state.steps, sid, actor);
  }

  /** Steps by outcome, insertion order. */
  byOutcome(sid: string, outcome: Outcome): StepRecord[] {
    return stepsByOutcome(this.state.steps, sid, outcome);
  }

  /** Session ids with steps, sorted. */
  sessions(): string[] {
    return [...this.state.steps.keys()].sort(compareUtf8);
  }
}

/** Analytics view. */
export class AnalyticsView {
  /** Wraps one state value. */
  constructor(private readonly state: ProjectState) {}

  /** Every record, oldest first. */
  all(): AnalyticsRecord[] {
    return this.state.analytics.toArray();
  }

  /** Latest record of a type. */
  last(type: string): AnalyticsRecord | undefined {
    return lastAnalytics(this.state.analytics, type);
  }

  /** True when a record of the type exists. */
  hasRun(type: string): boolean {
    return lastAnalytics(this.state.analytics, type) !== undefined;
  }
}

/** Delta-history view. */
export class DeltaHistoryView {
  /** Wraps one state value. */
  constructor(private readonly state: ProjectState) {}

  /** Records with from < generation <= to, ascending. */
  range(from: number, to: number): DeltaRecord[] {
    return deltaRange(this.state.deltaHistory, from, to);
  }

  /** Records touching a node, ascending. */
  byNode(node: string): DeltaRecord[] {
    return deltasByNode(this.state.deltaHistory, node);
  }

  /** The record that produced a generation. */
  byGeneration(g: number): DeltaRecord | undefined {
    return deltaByGeneration(this.state.deltaHistory, g);
  }

  /** Causal chain of a node, ascending. */
  explain(node: string): DeltaRecord[] {
    return explainNode(this.state.deltaHistory, node);
  }

  /** Number of retained records. */
  size(): number {
    return this.state.deltaHistory.size;
  }

  /** Every record, ascending. */
  all(): DeltaRecord[] {
    return this.state.deltaHistory.toArray();
  }
}
