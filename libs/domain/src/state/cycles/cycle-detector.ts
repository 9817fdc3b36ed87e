/**
 * A mutable wrapper over the persistent cycle detector (`detector-state.ts`) for callers that
 * keep a detector outside the project state, plus the reference's state-key builders.
 */

import {
  DEFAULT_CYCLE_HISTORY,
  detectorStats,
  emptyDetector,
  feedDetector,
  resetDetector,
  type CycleDetection,
  type CycleDetectorState,
  type CycleDetectorStats,
} from "./detector-state.js";

/** A cycle detector over a bounded window of recent states: the first repeat closes a cycle. */
export class CycleDetector {
  private state: CycleDetectorState;

  /** `maxHistory` <= 0 means {@link DEFAULT_CYCLE_HISTORY}; cycles longer than it are not reported. */
  constructor(maxHistory = DEFAULT_CYCLE_HISTORY) {
    this.state = emptyDetector(maxHistory > 0 ? maxHistory : DEFAULT_CYCLE_HISTORY);
  }

  /** Feeds the next state; `at` (Unix ms) is remembered as the last detection time on a hit. */
  addStep(state: string, at = 0): CycleDetection {
    const r = feedDetector(this.state, state, at);
    this.state = r.detector;
    return r.detection;
  }

  /** Forgets the stream; the lifetime detection count is kept. */
  reset(): void {
    this.state = resetDetector(this.state);
  }

  /** Current counters. */
  stats(): CycleDetectorStats {
    return detectorStats(this.state);
  }
}

/** `<decision>:<tool>:<outcome>:<actor>` of a step. */
export function stepStateKey(step: { decision: string; tool: string; outcome: string; actor: string }): string {
  return `${step.decision}:${step.tool}:${step.outcome}:${step.actor}`;
}

/** `<tool>:<outcome>`, or `no_tool:<outcome>` without a tool. */
export function toolStateKey(step: { tool: string; outcome: string }): string {
  return `${step.tool === "" ? "no_tool" : step.tool}:${step.outcome}`;
}
