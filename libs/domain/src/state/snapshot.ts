/**
 * Snapshots: read-only views over one persistent state value. Taking one is O(1) and it
 * never changes afterwards, because the state it wraps is never mutated.
 */

import { CycleView } from "./cycles/cycle-view.js";
import type { EntryIndex } from "./entries/mod-generations.js";
import { modGenerationOf } from "./entries/preconditions.js";
import type { ProjectState } from "./project-state.js";
import { QueryAPI } from "./query/query-api.js";
import {
  AnalyticsView,
  ConstraintView,
  DeltaHistoryView,
  DependencyView,
  HistoryView,
  ProofView,
  SimilarityView,
  StepView,
  StreamingView,
} from "./snapshot-views.js";

/** An immutable view of one project's state at one generation. */
export class Snapshot {
  /** Wraps `state`; `createdAt` is the Unix ms the snapshot was taken. */
  constructor(
    /** The state value. */
    readonly state: ProjectState,
    /** Unix ms when the snapshot was taken. */
    readonly createdAt: number,
  ) {
    // The engine hands the same snapshot to every caller, so it must not be repointable.
    Object.freeze(this);
  }

  /** Generation of the wrapped state. */
  get generation(): number {
    return this.state.generation;
  }

  /** Cross-index queries. */
  query(): QueryAPI {
    return new QueryAPI(this.state);
  }

  /** Proof index view. */
  get proof(): ProofView {
    return new ProofView(this.state);
  }

  /** Constraint and clause view. */
  get constraints(): ConstraintView {
    return new ConstraintView(this.state);
  }

  /** Similarity view. */
  get similarity(): SimilarityView {
    return new SimilarityView(this.state);
  }

  /** Dependency view. */
  get dependency(): DependencyView {
    return new DependencyView(this.state);
  }

  /** History view. */
  get history(): HistoryView {
    return new HistoryView(this.state);
  }

  /** Streaming view. */
  get streaming(): StreamingView {
    return new StreamingView(this.state);
  }

  /** Step view. */
  get steps(): StepView {
    return new StepView(this.state);
  }

  /** Analytics view. */
  get analytics(): AnalyticsView {
    return new AnalyticsView(this.state);
  }

  /** Delta-history view. */
  get deltaHistory(): DeltaHistoryView {
    return new DeltaHistoryView(this.state);
  }

  /** Cycle detector view. */
  get cycles(): CycleView {
    return new CycleView(this.state);
  }

  /**
   * Generation that last changed an entry (0 when absent): node id, constraint id, clause id,
   * or a similarity pair key `["a","b"]` in either order (INVALID_ARGUMENT when malformed).
   */
  modGeneration(index: EntryIndex, key: string): number {
    return modGenerationOf(this.state, index, key);
  }
}
