/**
 * Events: one per mutation, plain JSON-safe data (uint64 values as decimal strings).
 * Replaying the events of a history, in order, from the empty state reproduces that state.
 * Every event carries the lowest format version that can express it ({@link eventFormatOf}), so
 * a reader of an older format reads every event of its own kinds; a reader meeting a version above
 * {@link STATE_EVENT_FORMAT} stops with UNSUPPORTED_FORMAT instead of guessing.
 *
 * Formats: 1 - every event type but `config_updated`; 2 - adds `config_updated`; 3 - a
 * `cycle_checked` event names the detector rule it was fed by (`rule`), and is written at 3 so a
 * reader that knows only Brent's detector refuses it instead of replaying it differently; 4 - a
 * `clause_added` event collects the expired clauses first (`collectExpired`), written at 4 so an
 * older reader refuses it instead of keeping clauses the writer removed.
 */

import type { ClauseInput } from "../clauses/clause-store.js";
import type { StateConfig } from "../config.js";
import { uint64ToJson, type DeltaJson } from "../delta/codec.js";
import type { StateDocument } from "../export/document.js";
import type { ProofUpdate } from "../proof/proof-update.js";
import type { StepRecord } from "../steps/step-record.js";

/** The newest event format this engine writes and reads; it reads every version from 1 up to it. */
export const STATE_EVENT_FORMAT = 4;

/**
 * The lowest event format that can express an event of `type`: the version it is written with.
 * (`config_updated` events written before format 2 existed say 1; readers accept them.)
 */
export function eventFormatOf(type: string): number {
  if (type === "clause_added") return 4;
  if (type === "cycle_checked") return 3;
  return type === "config_updated" ? 2 : 1;
}

/** Fields every event carries. */
export interface EventBase {
  /** {@link eventFormatOf} its type, at most {@link STATE_EVENT_FORMAT}. */
  readonly formatVersion: number;
  /** Generation after the mutation. */
  readonly generation: number;
  /** Unix ms of the mutation; replay uses it instead of a clock. */
  readonly at: number;
}

/** A proof update whose delta is a decimal string. */
export type ProofUpdateJson = Omit<ProofUpdate, "delta"> & { readonly delta: string };

/** A delta was applied. */
export interface DeltaAppliedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "delta_applied";
  /** The delta. */
  readonly delta: DeltaJson;
  /** Session on whose behalf ("" when none). */
  readonly sessionId: string;
  /** Caller metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Who applied it (free text, "" when not given), kept in the delta history beside the signal source. */
  readonly label: string;
}

/** A proof number was updated incrementally. */
export interface ProofUpdatedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "proof_updated";
  /** The update. */
  readonly update: ProofUpdateJson;
}

/** A disproof was propagated to dependents. */
export interface DisproofPropagatedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "disproof_propagated";
  /** The disproven node. */
  readonly nodeId: string;
}

/** A step was recorded (as stored: numbered, stamped, sanitized). */
export interface StepRecordedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "step_recorded";
  /** The stored step. */
  readonly step: StepRecord;
}

/** A session ended: its steps and session-scoped clauses were dropped. */
export interface SessionEndedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "session_ended";
  /** The session. */
  readonly sessionId: string;
}

/** A clause was learned or refreshed. */
export interface ClauseAddedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "clause_added";
  /** The caller's input. */
  readonly clause: ClauseInput;
  /** True when the clauses expired at `at` were removed first; absent in events written before that rule (format 1), which replay as they ran. */
  readonly collectExpired?: boolean;
}

/** A clause blocked a decision; its usage was recorded. */
export interface ClauseUsedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "clause_used";
  /** The clause. */
  readonly clauseId: string;
}

/** Expired clauses were collected. */
export interface ClausesCollectedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "clauses_collected";
}

/** A similarity distance was recorded directly. */
export interface SimilarityRecordedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "similarity_recorded";
  /** One node. */
  readonly a: string;
  /** The other node. */
  readonly b: string;
  /** Distance. */
  readonly distance: number;
}

/** The state was restored from a checkpoint. */
export interface StateRestoredEvent extends EventBase {
  /** Discriminator. */
  readonly type: "state_restored";
  /** Id of the checkpoint. */
  readonly checkpointId: string;
  /** The checkpoint's content. */
  readonly document: StateDocument;
}

/** The state was replaced by an imported document (every index, steps and analytics included). */
export interface StateImportedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "state_imported";
  /** The imported content. */
  readonly document: StateDocument;
}

/** A state key was fed to a session's cycle detector (with disproof and circuit breaker on detection). */
export interface CycleCheckedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "cycle_checked";
  /** The session. */
  readonly sessionId: string;
  /** The state key fed (already sanitized). */
  readonly stateKey: string;
  /** Window capacity used when the session has no detector yet. */
  readonly maxHistory: number;
  /** The detector rule: `first_repeat`; absent in events journaled before it, which were fed to Brent's detector. */
  readonly rule?: CycleRule;
}

/** How a `cycle_checked` event's state was fed: see `cycles/detector-state.ts`. */
export type CycleRule = "first_repeat" | "brent";

/** A session's cycle detector was reset. */
export interface CycleDetectorResetEvent extends EventBase {
  /** Discriminator. */
  readonly type: "cycle_detector_reset";
  /** The session. */
  readonly sessionId: string;
  /** Window capacity from now on. */
  readonly maxHistory: number;
}

/** The project's configuration was replaced (bounded indexes cut to the new limits in the same step). */
export interface ConfigUpdatedEvent extends EventBase {
  /** Discriminator. */
  readonly type: "config_updated";
  /** The whole new configuration, defaults filled in. */
  readonly config: StateConfig;
}

/** Any event. */
export type StateEvent =
  | DeltaAppliedEvent
  | ProofUpdatedEvent
  | DisproofPropagatedEvent
  | StepRecordedEvent
  | SessionEndedEvent
  | ClauseAddedEvent
  | ClauseUsedEvent
  | ClausesCollectedEvent
  | SimilarityRecordedEvent
  | StateRestoredEvent
  | StateImportedEvent
  | CycleCheckedEvent
  | CycleDetectorResetEvent
  | ConfigUpdatedEvent;

/** Event type names. */
export type StateEventType = StateEvent["type"];

/** Every event type, in declaration order. */
export const STATE_EVENT_TYPES: readonly StateEventType[] = [
  "delta_applied",
  "proof_updated",
  "disproof_propagated",
  "step_recorded",
  "session_ended",
  "clause_added",
  "clause_used",
  "clauses_collected",
  "similarity_recorded",
  "state_restored",
  "state_imported",
  "cycle_checked",
  "cycle_detector_reset",
  "config_updated",
];

/** The event of type `K`. */
export type EventOf<K extends StateEventType> = Extract<StateEvent, { readonly type: K }>;

/** What a mutation supplies: an event without the fields the engine stamps (version, generation, time). */
export type EventBody = StateEvent extends infer E ? (E extends StateEvent ? Omit<E, keyof EventBase> : never) : never;

/** Encodes a proof update for an event; a malformed delta is kept for validation to name. */
export function proofUpdateToJson(u: ProofUpdate): ProofUpdateJson {
  return { nodeId: u.nodeId, type: u.type, delta: uint64ToJson(u.delta) as string, reason: u.reason, source: u.source };
}
