/**
 * Events: one per mutation, plain JSON-safe data (uint64 values as decimal strings).
 * Replaying the events of a history, in order, from the empty state reproduces that state.
 */

import type { ClauseInput } from "../clauses/clause-store.js";
import type { DeltaJson } from "../delta/codec.js";
import type { StateDocument } from "../export/document.js";
import type { ProofUpdate } from "../proof/proof-update.js";
import type { StepRecord } from "../steps/step-record.js";

/** Fields every event carries. */
export interface EventBase {
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
  | StateRestoredEvent;

/** Event type names. */
export type StateEventType = StateEvent["type"];

/** Encodes a proof update for an event. */
export function proofUpdateToJson(u: ProofUpdate): ProofUpdateJson {
  return { nodeId: u.nodeId, type: u.type, delta: u.delta.toString(), reason: u.reason, source: u.source };
}
