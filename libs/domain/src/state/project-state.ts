/** The whole state of one project as one persistent value: cheap to keep, never mutated. */

import { List, Map as IMap } from "immutable";
import type { AnalyticsRecord } from "./analytics/analytics-record.js";
import { EMPTY_CLAUSES, type ClauseStore } from "./clauses/clause-store.js";
import type { Constraint } from "./constraints/constraint.js";
import { DEFAULT_STATE_CONFIG, type StateConfig } from "./config.js";
import type { CycleDetectorState } from "./cycles/detector-state.js";
import type { DeltaRecord } from "./delta-history/delta-record.js";
import { EMPTY_DEPENDENCY, type DependencyIndex } from "./dependency/dependency-index.js";
import { EMPTY_MOD_GENERATIONS, similarityKeyPair, type EntryIndex, type ModGenerations } from "./entries/mod-generations.js";
import { EMPTY_HISTORY, type HistoryIndex } from "./history/history-index.js";
import type { ProofNumber } from "./proof/proof-number.js";
import { EMPTY_SIMILARITY, type SimilarityIndex } from "./similarity/similarity-index.js";
import { EMPTY_STEPS, type StepStore } from "./steps/step-store.js";
import { EMPTY_STREAMING, type StreamingIndex } from "./streaming/streaming-index.js";

/** Every index of one project plus its generation. */
export interface ProjectState {
  /** Bumped by exactly one on every mutation; never decreases. */
  readonly generation: number;
  /** nodeId -> proof number. */
  readonly proofs: IMap<string, ProofNumber>;
  /** id -> constraint. */
  readonly constraints: IMap<string, Constraint>;
  /** Learned clauses. */
  readonly clauses: ClauseStore;
  /** Similarity distances. */
  readonly similarity: SimilarityIndex;
  /** Dependency edges. */
  readonly dependency: DependencyIndex;
  /** Decision history. */
  readonly history: HistoryIndex;
  /** Streaming statistics. */
  readonly streaming: StreamingIndex;
  /** Step records per session. */
  readonly steps: StepStore;
  /** Analysis runs, oldest first. */
  readonly analytics: List<AnalyticsRecord>;
  /** Applied deltas, oldest first. */
  readonly deltaHistory: List<DeltaRecord>;
  /** Brent cycle detector per session id. */
  readonly cycles: IMap<string, CycleDetectorState>;
  /** Generation that last changed each proof entry, constraint, clause and similarity pair. */
  readonly modGenerations: ModGenerations;
  /** The project's limits: state like any index, changed only by a journaled config update. */
  readonly config: StateConfig;
  /**
   * Generation of the last restore or import that replaced the whole state (0 = never): no change
   * leads across it, so a watch must start after it.
   */
  readonly replacedGeneration: number;
}

/** True when the entry `key` of `index` exists in `state` (similarity keys are canonical pair keys). */
export function entryExists(state: ProjectState, index: EntryIndex, key: string): boolean {
  switch (index) {
    case "proof":
      return state.proofs.has(key);
    case "constraint":
      return state.constraints.has(key);
    case "clause":
      return state.clauses.clauses.has(key);
    case "similarity": {
      const [a, b] = similarityKeyPair(key);
      return state.similarity.adjacency.get(a)?.has(b) ?? false;
    }
  }
}

/**
 * Freezes the plain objects that wrap the indexes (the collections inside are immutable
 * already), so a state shared by snapshots cannot be edited in place. O(1). Objects shared with
 * `previous`, a state frozen before, are skipped.
 */
export function freezeIndexes<T extends Omit<ProjectState, "generation">>(s: T, previous?: Omit<ProjectState, "generation">): T {
  freezeNew(s.clauses, previous?.clauses);
  freezeNew(s.clauses.watches, previous?.clauses.watches);
  freezeNew(s.similarity, previous?.similarity);
  freezeNew(s.dependency, previous?.dependency);
  freezeNew(s.history, previous?.history);
  freezeNew(s.streaming, previous?.streaming);
  freezeNew(s.streaming.frequency, previous?.streaming.frequency);
  freezeNew(s.streaming.cardinality, previous?.streaming.cardinality);
  freezeNew(s.modGenerations, previous?.modGenerations);
  return s;
}

function freezeNew(o: object, old: object | undefined): void {
  if (o !== old) Object.freeze(o);
}

/** The state of a project nothing has happened to. */
export const EMPTY_STATE: ProjectState = Object.freeze(
  freezeIndexes({
    generation: 0,
    proofs: IMap<string, ProofNumber>(),
    constraints: IMap<string, Constraint>(),
    clauses: EMPTY_CLAUSES,
    similarity: EMPTY_SIMILARITY,
    dependency: EMPTY_DEPENDENCY,
    history: EMPTY_HISTORY,
    streaming: EMPTY_STREAMING,
    steps: EMPTY_STEPS,
    analytics: List<AnalyticsRecord>(),
    deltaHistory: List<DeltaRecord>(),
    cycles: IMap<string, CycleDetectorState>(),
    modGenerations: EMPTY_MOD_GENERATIONS,
    config: DEFAULT_STATE_CONFIG,
    replacedGeneration: 0,
  }),
);

/** The empty state under `config` (already resolved). */
export function emptyState(config: StateConfig): ProjectState {
  return config === DEFAULT_STATE_CONFIG ? EMPTY_STATE : Object.freeze({ ...EMPTY_STATE, config });
}
