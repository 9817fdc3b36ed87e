/**
 * Snapshots: read-only views over one persistent state value. Taking one is O(1) and it
 * never changes afterwards, because the state it wraps is never mutated.
 */

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
import type { ProjectState } from "./project-state.js";
import { QueryAPI } from "./query/query-api.js";
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

/** An immutable view of one project's state at one generation. */
export class Snapshot {
  /** Wraps `state`; `createdAt` is the Unix ms the snapshot was taken. */
  constructor(
    /** The state value. */
    readonly state: ProjectState,
    /** Unix ms when the snapshot was taken. */
    readonly createdAt: number,
  ) {}

  /** Generation of the wrapped state. */
  get generation(): number {
    return this.state.generation;
  }

  /** Cross-index queries. */
  query(): QueryAPI {
    return new QueryAPI(this.state);
  }

  /** Proof index view. */
  readonly proof = {
    /** Value of a node, if present. */
    get: (id: string): ProofNumber | undefined => this.state.proofs.get(id),
    /** Every entry, by node id byte-wise. */
    all: (): ProofEntry[] =>
      [...this.state.proofs].sort((a, b) => compareUtf8(a[0], b[0])).map(([nodeId, p]) => ({ nodeId, ...p })),
    /** Number of entries. */
    size: (): number => this.state.proofs.size,
  };

  /** Constraint and clause view. */
  readonly constraints = {
    /** Constraint by id. */
    get: (id: string): Constraint | undefined => this.state.constraints.get(id),
    /** Every constraint, by id. */
    all: (): Constraint[] => [...this.state.constraints.values()].sort((a, b) => compareUtf8(a.id, b.id)),
    /** Number of constraints. */
    size: (): number => this.state.constraints.size,
    /** Constraints of a type, by id. */
    findByType: (t: ConstraintType): Constraint[] => this.constraints.all().filter((c) => c.type === t),
    /** Constraints naming a node, by id. */
    findByNode: (n: string): Constraint[] => this.constraints.all().filter((c) => c.nodes.includes(n)),
    /** Clause by id. */
    getClause: (id: string): Clause | undefined => this.state.clauses.clauses.get(id),
    /** Every clause, by id. */
    allClauses: (): Clause[] => allClauses(this.state.clauses),
    /** Number of clauses. */
    clauseCount: (): number => this.state.clauses.clauses.size,
    /** Checks an assignment without recording usage. */
    checkAssignment: (a: Assignment): ClauseCheckResult => checkAssignment(this.state.clauses, a),
  };

  /** Similarity view. */
  readonly similarity = {
    /** Distance in either order, if recorded. */
    distance: (a: string, b: string): number | undefined => getDistance(this.state.similarity, a, b),
    /** k nearest neighbours, by distance then id. */
    nearestNeighbors: (id: string, k: number): Neighbor[] => nearestNeighbors(this.state.similarity, id, k),
    /** Number of canonical pairs. */
    size: (): number => this.state.similarity.pairCount,
    /** Canonical pairs, capped at `max` (<= 0 means no cap). */
    allPairs: (max = 0): PairsPage => {
      const pairs = allPairs(this.state.similarity);
      if (max <= 0 || pairs.length <= max) return { pairs, truncated: false };
      return { pairs: pairs.slice(0, max), truncated: true };
    },
  };

  /** Dependency view. */
  readonly dependency = {
    /** Nodes `id` depends on, sorted. */
    dependsOn: (id: string): string[] => dependsOn(this.state.dependency, id),
    /** Nodes depending on `id`, sorted. */
    dependedBy: (id: string): string[] => dependedBy(this.state.dependency, id),
    /** True when `id` lies on a cycle. */
    hasCycle: (id: string): boolean => onCycle(this.state.dependency, id),
    /** Number of edges. */
    size: (): number => this.state.dependency.edgeCount,
    /** Every edge by (from, to). */
    allEdges: (): DependencyEdge[] => allEdges(this.state.dependency),
  };

  /** History view. */
  readonly history = {
    /** Entries about a node, oldest first. */
    trace: (node: string): HistoryEntry[] => traceNode(this.state.history, node),
    /** Last n entries, oldest first. */
    recent: (n: number): HistoryEntry[] => recentHistory(this.state.history, n),
    /** Number of retained entries. */
    size: (): number => this.state.history.entries.size,
  };

  /** Streaming view. */
  readonly streaming = {
    /** Estimated frequency (never below the truth). */
    estimate: (item: string): number => streamingEstimate(this.state.streaming, item),
    /** Estimated number of distinct items. */
    cardinality: (): number => streamingCardinality(this.state.streaming),
    /** Fixed memory footprint in bytes. */
    sizeBytes: (): number => streamingBytes(this.state.streaming),
    /** Stated error bounds of both sketches. */
    errorBounds: (): { frequencyEpsilon: number; frequencyDelta: number; frequencyAdditive: number; cardinalityStandardError: number } => {
      const cm = countMinErrorBound(this.state.streaming.frequency);
      return {
        frequencyEpsilon: cm.epsilon,
        frequencyDelta: cm.delta,
        frequencyAdditive: cm.additive,
        cardinalityStandardError: hyperLogLogStandardError(this.state.streaming.cardinality),
      };
    },
  };

  /** Step view. */
  readonly steps = {
    /** Steps of a session, insertion order. */
    history: (sid: string): StepRecord[] => stepHistory(this.state.steps, sid),
    /** Last step of a session. */
    last: (sid: string): StepRecord | undefined => lastStep(this.state.steps, sid),
    /** execute_tool count of a tool in a session. */
    countToolExecutions: (sid: string, tool: string): number => countToolExecutions(this.state.steps, sid, tool),
    /** Steps by actor, insertion order. */
    byActor: (sid: string, actor: Actor): StepRecord[] => stepsByActor(this.state.steps, sid, actor),
    /** Steps by outcome, insertion order. */
    byOutcome: (sid: string, outcome: Outcome): StepRecord[] => stepsByOutcome(this.state.steps, sid, outcome),
    /** Session ids with steps, sorted. */
    sessions: (): string[] => [...this.state.steps.keys()].sort(compareUtf8),
  };

  /** Analytics view. */
  readonly analytics = {
    /** Every record, oldest first. */
    all: (): AnalyticsRecord[] => this.state.analytics.toArray(),
    /** Latest record of a type. */
    last: (type: string): AnalyticsRecord | undefined => lastAnalytics(this.state.analytics, type),
    /** True when a record of the type exists. */
    hasRun: (type: string): boolean => lastAnalytics(this.state.analytics, type) !== undefined,
  };

  /** Delta-history view. */
  readonly deltaHistory = {
    /** Records with from < generation <= to, ascending. */
    range: (from: number, to: number): DeltaRecord[] => deltaRange(this.state.deltaHistory, from, to),
    /** Records touching a node, ascending. */
    byNode: (node: string): DeltaRecord[] => deltasByNode(this.state.deltaHistory, node),
    /** The record that produced a generation. */
    byGeneration: (g: number): DeltaRecord | undefined => deltaByGeneration(this.state.deltaHistory, g),
    /** Causal chain of a node, ascending. */
    explain: (node: string): DeltaRecord[] => explainNode(this.state.deltaHistory, node),
    /** Number of retained records. */
    size: (): number => this.state.deltaHistory.size,
    /** Every record, ascending. */
    all: (): DeltaRecord[] => this.state.deltaHistory.toArray(),
  };
}
