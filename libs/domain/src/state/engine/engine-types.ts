/** Options, results and values of the engine's public methods. */

import type { Snapshot } from "../snapshot.js";
import type { Clause } from "../clauses/clause.js";
import type { DeltaRecord } from "../delta-history/delta-record.js";
import type { StateConfig } from "../config.js";
import type { ExpectedEntry } from "../entries/preconditions.js";
import type { StateEvent } from "../events/event.js";
import type { ProjectState } from "../project-state.js";

/** Options of the engine. */
export interface EngineOptions {
  /** Limits; merged over the defaults. */
  readonly config?: Partial<StateConfig>;
  /** Clock returning Unix ms. @defaultValue a clock that always returns 0 */
  readonly now?: () => number;
  /** Text sanitizer for step records and state keys; `false` disables it. @defaultValue sanitizeSecrets */
  readonly sanitizer?: ((text: string) => string) | false;
  /** Starting state. @defaultValue the empty state */
  readonly initial?: ProjectState;
  /**
   * Snapshots of earlier generations that stay readable through `snapshotAt`, oldest first (as
   * {@link StateEngine.retainedSnapshots} gives them); one wrapping `initial` itself is taken as
   * the current snapshot. Those of later generations are ignored. @defaultValue none
   */
  readonly retained?: readonly Snapshot[];
}

/** Options shared by every mutation; a failed precondition changes nothing. */
export interface MutationOptions {
  /** Fail with GENERATION_MISMATCH unless the current generation equals this. */
  readonly expectedGeneration?: number;
  /** Fail with ENTRY_MODIFIED unless every named entry's modification generation equals the given one (0 = absent). */
  readonly expectedEntries?: readonly ExpectedEntry[];
}

/** Options of `apply`. */
export interface ApplyOptions extends MutationOptions {
  /** Session on whose behalf the delta is applied. @defaultValue "" */
  readonly sessionId?: string;
  /** Caller metadata, kept in the delta history. @defaultValue {} */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Who applied the delta (a client or component name), kept in the delta history beside its source. @defaultValue "" */
  readonly label?: string;
}

/** Options of `checkCycle` and `resetCycleDetector`. */
export interface CycleOptions extends MutationOptions {
  /** Window of the session's detector: used when it is created (checkCycle) or reset. @defaultValue config.cycleHistory */
  readonly maxHistory?: number;
  /**
   * Called (checkCycle only) with the change record a detected loop would write, before anything
   * changes: a throw refuses the feed with the state, detector and generation untouched. It lets
   * the owner refuse a record it could never serve, which grows with the loop. @defaultValue none
   */
  readonly admitRecord?: (record: DeltaRecord) => void;
}

/** What a mutation returns: its result, the new generation and the event to journal. */
export interface Mutation<R> {
  /** Operation-specific result. */
  readonly result: R;
  /** Generation after the mutation. */
  readonly generation: number;
  /** The event, or undefined when nothing changed (the generation did not move). */
  readonly event: StateEvent | undefined;
}

/** A point-in-time copy of a project's state; O(1) to take and never changed afterwards. */
export interface Checkpoint {
  /** `checkpoint-<generation>`. */
  readonly id: string;
  /** Generation captured. */
  readonly generation: number;
  /** Unix ms. */
  readonly createdAt: number;
  /** The captured state. */
  readonly state: ProjectState;
}

/** Verdict of `checkDecisionAllowed`. */
export interface DecisionVerdict {
  /** False when a learned clause forbids the decision. */
  readonly allowed: boolean;
  /** Why not, or "". */
  readonly reason: string;
  /** The clause that blocked it. */
  readonly clause: Clause | undefined;
}
