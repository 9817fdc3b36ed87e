/** Replay: folds events into state with the same transitions the engine used. */

import type { StateConfig } from "../config.js";
import { deltaFromJson, parseUint64 } from "../delta/codec.js";
import { StateError } from "../errors.js";
import { fromDocument } from "../export/import.js";
import { EMPTY_STATE, type ProjectState } from "../project-state.js";
import {
  clauseGcTransition,
  clauseTransition,
  clauseUseTransition,
  deltaTransition,
  endSessionTransition,
  propagateDisproofTransition,
  proofUpdateTransition,
  restoreTransition,
  similarityTransition,
  stepTransition,
  type TransitionContext,
} from "../engine/transitions.js";
import type { StateEvent } from "./event.js";

function next(state: ProjectState, e: StateEvent, ctx: TransitionContext): ProjectState {
  switch (e.type) {
    case "delta_applied":
      return deltaTransition(state, deltaFromJson(e.delta), e.sessionId, e.metadata, ctx);
    case "proof_updated":
      return proofUpdateTransition(state, { ...e.update, delta: parseUint64(e.update.delta, "update.delta") }, ctx);
    case "disproof_propagated":
      return propagateDisproofTransition(state, e.nodeId, ctx).state;
    case "step_recorded":
      return stepTransition(state, e.step, ctx).state;
    case "session_ended":
      return endSessionTransition(state, e.sessionId).state;
    case "clause_added":
      return clauseTransition(state, e.clause, ctx).state;
    case "clause_used":
      return clauseUseTransition(state, e.clauseId, ctx);
    case "clauses_collected":
      return clauseGcTransition(state, ctx).state;
    case "similarity_recorded":
      return similarityTransition(state, e.a, e.b, e.distance, ctx);
    case "state_restored":
      return restoreTransition(state, fromDocument(e.document, ctx.config));
    default:
      throw new StateError("INVALID_ARGUMENT", `replay: unknown event type ${String((e as { type?: unknown }).type)}`, { field: "type" });
  }
}

/** Applies one event; REPLAY_DIVERGED when the resulting generation is not the recorded one. */
export function applyEvent(state: ProjectState, event: StateEvent, config: StateConfig): ProjectState {
  const result = next(state, event, { at: event.at, config });
  if (result.generation !== event.generation) {
    throw new StateError("REPLAY_DIVERGED", `replay: event produced generation ${result.generation}, recorded ${event.generation}`, {
      field: "generation",
    });
  }
  return result;
}

/** Folds `events` into `from` (the empty state by default). */
export function replayEvents(events: Iterable<StateEvent>, config: StateConfig, from: ProjectState = EMPTY_STATE): ProjectState {
  let state = from;
  for (const e of events) state = applyEvent(state, e, config);
  return state;
}
