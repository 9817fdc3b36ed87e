/**
 * The one transition function: maps an event to the next state. The live engine builds the
 * event first and runs it through here, and replay runs the journaled event through here, so
 * the two cannot drift apart.
 */

import type { AddClauseResult } from "../clauses/clause-store.js";
import type { Clause } from "../clauses/clause.js";
import type { StateConfig } from "../config.js";
import { cycleCheckTransition, cycleResetTransition, type CycleCheckResult } from "../cycles/cycle-transition.js";
import type { CycleDetectorStats } from "../cycles/detector-state.js";
import { uint64FromJson } from "../delta/codec.js";
import { StateError } from "../errors.js";
import { STATE_EVENT_FORMAT, type EventBody, type StateEventType } from "../events/event.js";
import { fromDocument } from "../export/import.js";
import type { ProofNumber } from "../proof/proof-number.js";
import type { ProjectState } from "../project-state.js";
import type { StepRecord } from "../steps/step-record.js";
import * as t from "./transitions.js";

/** What each kind of event's transition reports besides the state. */
export interface TransitionResults {
  /** Nothing. */
  readonly delta_applied: undefined;
  /** The stored value. */
  readonly proof_updated: ProofNumber;
  /** Affected nodes in visit order. */
  readonly disproof_propagated: string[];
  /** The stored step. */
  readonly step_recorded: StepRecord;
  /** Removed session clauses, sorted. */
  readonly session_ended: string[];
  /** The clause store's answer. */
  readonly clause_added: AddClauseResult & { readonly expired: readonly string[] };
  /** The clause after its use was recorded. */
  readonly clause_used: Clause;
  /** Removed clause ids, sorted. */
  readonly clauses_collected: string[];
  /** Nothing. */
  readonly similarity_recorded: undefined;
  /** Nothing. */
  readonly state_restored: undefined;
  /** Nothing. */
  readonly state_imported: undefined;
  /** The detector's verdict and what it changed. */
  readonly cycle_checked: CycleCheckResult;
  /** The detector's counters after the reset. */
  readonly cycle_detector_reset: CycleDetectorStats;
  /** The configuration now in force. */
  readonly config_updated: StateConfig;
}

/** A transition's outcome: the next state (the same value when nothing changed) and its result. */
export interface TransitionOutcome<K extends StateEventType> {
  /** Next state. */
  readonly state: ProjectState;
  /** Event-specific result. */
  readonly result: TransitionResults[K];
}

/** Runs the transition of `event` on `state`; `ctx.at` is the event's time and `ctx.config` the state's own limits. */
export function runEvent<B extends EventBody>(state: ProjectState, event: B, ctx: t.TransitionContext): TransitionOutcome<B["type"]> {
  return run(state, event as EventBody, ctx) as TransitionOutcome<B["type"]>;
}

function run(state: ProjectState, e: EventBody, ctx: t.TransitionContext): TransitionOutcome<StateEventType> {
  switch (e.type) {
    case "delta_applied":
      return {
        state: t.deltaTransition(state, e.delta, { sessionId: e.sessionId, metadata: e.metadata, label: e.label ?? "" }, ctx),
        result: undefined,
      };
    case "proof_updated": {
      const next = t.proofUpdateTransition(state, { ...e.update, delta: uint64FromJson(e.update.delta, "delta") }, ctx);
      return { state: next, result: next.proofs.get(e.update.nodeId) as ProofNumber };
    }
    case "disproof_propagated": {
      const r = t.propagateDisproofTransition(state, e.nodeId, ctx);
      return { state: r.state, result: r.affected };
    }
    case "step_recorded": {
      const r = t.stepTransition(state, e.step, ctx);
      return { state: r.state, result: r.step };
    }
    case "session_ended": {
      const r = t.endSessionTransition(state, e.sessionId);
      return { state: r.state, result: r.removedClauses };
    }
    case "clause_added": {
      const r = t.clauseTransition(state, e.clause, ctx, e.collectExpired === true);
      return { state: r.state, result: r.result };
    }
    case "clause_used": {
      const r = t.clauseUseTransition(state, e.clauseId, ctx);
      return { state: r.state, result: r.clause };
    }
    case "clauses_collected": {
      const r = t.clauseGcTransition(state, ctx);
      return { state: r.state, result: r.removed };
    }
    case "similarity_recorded":
      return { state: t.similarityTransition(state, e.a, e.b, e.distance, ctx), result: undefined };
    case "state_restored":
      return { state: t.restoreTransition(state, fromDocument(e.document, ctx.config)), result: undefined };
    case "state_imported":
      return { state: t.importTransition(state, fromDocument(e.document, ctx.config)), result: undefined };
    case "cycle_checked":
      return cycleCheckTransition(state, e.sessionId, e.stateKey, e.maxHistory, ctx, e.rule ?? "brent");
    case "cycle_detector_reset":
      return cycleResetTransition(state, e.sessionId, e.maxHistory);
    case "config_updated": {
      const next = t.configTransition(state, e.config);
      return { state: next, result: next.config };
    }
    default:
      throw new StateError("INVALID_ARGUMENT", `replay: unknown event type ${String((e as { type?: unknown }).type)}`, { field: "type" });
  }
}

/**
 * UNSUPPORTED_FORMAT unless `event` is written in a format from 1 to {@link STATE_EVENT_FORMAT}.
 * An event without the field was journaled before events were tagged, so it reads as 1.
 */
export function checkEventFormat(event: { readonly formatVersion?: unknown }): void {
  if (event === null || typeof event !== "object")
    throw new StateError("INVALID_ARGUMENT", "replay: event must be an object", { field: "event" });
  const v = event.formatVersion;
  if (v !== undefined && !(Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= STATE_EVENT_FORMAT)) {
    throw new StateError(
      "UNSUPPORTED_FORMAT",
      `replay: event format ${String(event.formatVersion)} is not supported (this engine reads ${STATE_EVENT_FORMAT})`,
      {
        field: "formatVersion",
      },
    );
  }
}
