/**
 * A session's cycle detector as a persistent value, so it is part of the project state:
 * snapshots, checkpoints, forks and documents carry it, and replaying the events that fed it
 * rebuilds it exactly.
 *
 * The window keeps the states fed since the last reset, at most `maxHistory`. A state already in
 * the window closes a cycle at once ({@link feedDetector}): the first repeat of any state, so a
 * return to the first state is caught on the feed that makes it, as the reference catches it,
 * and a loop that avoids the first state is caught too. On detection, `cycle` is the states from
 * the repeated state's latest earlier feed up to just before the current one (the current state
 * closes it), `tailLength` counts the states fed since the last reset before the cycle starts,
 * and the detector resets so the next cycle is measured afresh (the lifetime count and the last
 * detection time are kept). A cycle longer than the window is not reported.
 *
 * Journals written before this rule fed Brent's detector ({@link feedDetectorBrent}); their
 * events replay through it, so a replay answers what the live call answered. Its registers
 * (power, lambda, tortoise) stay in the state for that reason.
 */

import { List } from "immutable";

/** Default window capacity. */
export const DEFAULT_CYCLE_HISTORY = 1000;

/** Largest window a caller may ask for. */
export const MAX_CYCLE_HISTORY = 100_000;

/** One detector: the window of recent states, its counters and Brent's registers (see above). */
export interface CycleDetectorState {
  /** Window capacity. */
  readonly maxHistory: number;
  /** Current power of two (the search range). */
  readonly power: number;
  /** States fed since the tortoise last moved. */
  readonly lambda: number;
  /** The state the tortoise sits on; undefined before the first state after a reset. */
  readonly tortoise: string | undefined;
  /** Most recent states, oldest first, at most `maxHistory`. */
  readonly window: List<string>;
  /** States fed since the last reset. */
  readonly stepsProcessed: number;
  /** Cycles detected over the detector's life. */
  readonly cyclesDetected: number;
  /** Unix ms of the last detection (0 = never). */
  readonly lastCycleAt: number;
}

/** Outcome of feeding one state. */
export interface CycleDetection {
  /** True when the new state closed a cycle. */
  readonly detected: boolean;
  /** States of the cycle in stream order (empty when not detected). */
  readonly cycle: readonly string[];
  /** Length of the cycle. */
  readonly cycleLength: number;
  /** States seen before the cycle began, since the last reset. */
  readonly tailLength: number;
  /** The state just fed. */
  readonly stateKey: string;
}

/** Counters of a detector. */
export interface CycleDetectorStats {
  /** States fed since the last reset. */
  readonly stepsProcessed: number;
  /** Cycles detected over the detector's life. */
  readonly cyclesDetected: number;
  /** States currently in the window (never more than `maxHistory`). */
  readonly windowSize: number;
  /** Window capacity. */
  readonly maxHistory: number;
  /** Unix ms of the last detection (0 = never). */
  readonly lastCycleAt: number;
}

/** A fresh detector with a window of `maxHistory` states. */
export function emptyDetector(maxHistory = DEFAULT_CYCLE_HISTORY): CycleDetectorState {
  return Object.freeze({
    maxHistory,
    power: 1,
    lambda: 0,
    tortoise: undefined,
    window: List<string>(),
    stepsProcessed: 0,
    cyclesDetected: 0,
    lastCycleAt: 0,
  });
}

/** Forgets the stream; the lifetime count and the last detection time are kept. */
export function resetDetector(d: CycleDetectorState, maxHistory = d.maxHistory): CycleDetectorState {
  return Object.freeze({ ...emptyDetector(maxHistory), cyclesDetected: d.cyclesDetected, lastCycleAt: d.lastCycleAt });
}

const notDetected = (stateKey: string): CycleDetection => ({ detected: false, cycle: [], cycleLength: 0, tailLength: 0, stateKey });

/** Feeds the next state at Unix ms `at`: a state already in the window closes a cycle. */
export function feedDetector(
  d: CycleDetectorState,
  state: string,
  at: number,
): { detector: CycleDetectorState; detection: CycleDetection } {
  const stepsProcessed = d.stepsProcessed + 1;
  const seen = d.window.lastIndexOf(state);
  if (seen < 0) {
    // Brent's registers are left as they were; only replayed Brent feeds read them.
    const tortoise = d.tortoise ?? state;
    return {
      detector: Object.freeze({ ...d, tortoise, stepsProcessed, window: push(d.window, state, d.maxHistory) }),
      detection: notDetected(state),
    };
  }
  const cycle = d.window.skip(seen).toArray();
  return {
    detector: resetDetector({ ...d, cyclesDetected: d.cyclesDetected + 1, lastCycleAt: at }),
    detection: { detected: true, cycle, cycleLength: cycle.length, tailLength: stepsProcessed - 1 - cycle.length, stateKey: state },
  };
}

/**
 * Brent's detector, as journals written before {@link feedDetector} fed it: the tortoise
 * teleports to the hare at powers of two and a cycle is seen when the hare meets it, within
 * about 2(mu + lambda) states.
 */
export function feedDetectorBrent(
  d: CycleDetectorState,
  state: string,
  at: number,
): { detector: CycleDetectorState; detection: CycleDetection } {
  const stepsProcessed = d.stepsProcessed + 1;
  if (d.tortoise === undefined) {
    return {
      detector: Object.freeze({ ...d, tortoise: state, stepsProcessed, window: push(d.window, state, d.maxHistory) }),
      detection: notDetected(state),
    };
  }
  const lambda = d.lambda + 1;
  if (state === d.tortoise && lambda <= d.window.size) {
    // The window before this state ends with the lambda states from the tortoise on: the cycle.
    const cycle = d.window.skip(d.window.size - lambda).toArray();
    const detection: CycleDetection = {
      detected: true,
      cycle,
      cycleLength: lambda,
      tailLength: stepsProcessed - 1 - lambda,
      stateKey: state,
    };
    return { detector: resetDetector({ ...d, cyclesDetected: d.cyclesDetected + 1, lastCycleAt: at }), detection };
  }
  const window = push(d.window, state, d.maxHistory);
  // Teleport: the tortoise jumps to the hare and the search range doubles.
  const next = lambda === d.power ? { tortoise: state, power: d.power * 2, lambda: 0 } : { lambda };
  return { detector: Object.freeze({ ...d, ...next, stepsProcessed, window }), detection: notDetected(state) };
}

function push(window: List<string>, state: string, max: number): List<string> {
  const next = window.push(state);
  return next.size > max ? next.shift() : next;
}

/** Current counters. */
export function detectorStats(d: CycleDetectorState): CycleDetectorStats {
  return {
    stepsProcessed: d.stepsProcessed,
    cyclesDetected: d.cyclesDetected,
    windowSize: d.window.size,
    maxHistory: d.maxHistory,
    lastCycleAt: d.lastCycleAt,
  };
}
