/** Replay: folds journaled events into state through the same transition function the engine uses. */

import type { StateConfig } from "../config.js";
import { checkEventFormat, runEvent } from "../engine/run-event.js";
import { StateError } from "../errors.js";
import { emptyState, type ProjectState } from "../project-state.js";
import type { StateEvent } from "./event.js";

/**
 * Applies one event: UNSUPPORTED_FORMAT for another event format, REPLAY_DIVERGED when the
 * resulting generation is not the recorded one.
 */
export function applyEvent(state: ProjectState, event: StateEvent): ProjectState {
  checkEventFormat(event);
  const result = runEvent(state, event, { at: event.at, config: state.config }).state;
  if (result.generation !== event.generation) {
    throw new StateError("REPLAY_DIVERGED", `replay: event produced generation ${result.generation}, recorded ${event.generation}`, {
      field: "generation",
    });
  }
  return result;
}

/** Folds `events` into `from` (by default the empty state under `config`, the limits the project was created with). */
export function replayEvents(events: Iterable<StateEvent>, config: StateConfig, from: ProjectState = emptyState(config)): ProjectState {
  let state = from;
  for (const e of events) state = applyEvent(state, e);
  return state;
}
