/**
 * Online cycle detection over a stream of state keys with Brent's algorithm: the tortoise
 * teleports to the hare at powers of two, so any eventually periodic stream is detected
 * within about 2(mu + lambda) steps, whether or not the cycle passes through the first state.
 *
 * On detection, `cycle` is the lambda states ending just before the current one (the
 * current state closes it), and `tailLength` counts the states seen since the last reset
 * before the cycle starts. Detection resets the detector, so the next cycle is measured afresh.
 */

/** Outcome of adding one state. */
export interface CycleDetection {
  /** True when the new state closed a cycle. */
  readonly detected: boolean;
  /** States of the cycle in stream order (empty when not detected). */
  readonly cycle: readonly string[];
  /** Length of the cycle. */
  readonly cycleLength: number;
  /** States seen before the cycle began, since the last reset. */
  readonly tailLength: number;
  /** The state just added. */
  readonly stateKey: string;
}

/** Counters of a detector. */
export interface CycleDetectorStats {
  /** States seen since the last reset. */
  readonly stepsProcessed: number;
  /** Cycles detected over the detector's life. */
  readonly cyclesDetected: number;
  /** States currently in the window. */
  readonly windowSize: number;
  /** Window capacity. */
  readonly maxHistory: number;
}

/** Default window capacity. */
export const DEFAULT_CYCLE_HISTORY = 1000;

/** Brent's cycle detector over a bounded window of recent states. */
export class BrentCycleDetector {
  private power = 1;
  private lambda = 0;
  private tortoise: string | undefined;
  private window: string[] = [];
  private processed = 0;
  private detectedTotal = 0;
  private readonly maxHistory: number;

  /** `maxHistory` <= 0 means {@link DEFAULT_CYCLE_HISTORY}; cycles longer than it are not reported. */
  constructor(maxHistory = DEFAULT_CYCLE_HISTORY) {
    this.maxHistory = maxHistory > 0 ? maxHistory : DEFAULT_CYCLE_HISTORY;
  }

  /** Feeds the next state. */
  addStep(state: string): CycleDetection {
    this.processed++;
    this.window.push(state);
    if (this.window.length > this.maxHistory + 1) this.window.shift();
    if (this.tortoise === undefined) {
      this.tortoise = state;
      return { detected: false, cycle: [], cycleLength: 0, tailLength: 0, stateKey: state };
    }
    this.lambda++;
    if (state === this.tortoise && this.lambda <= this.maxHistory) {
      const lambda = this.lambda;
      const cycle = this.window.slice(this.window.length - 1 - lambda, this.window.length - 1);
      const tailLength = this.processed - 1 - lambda;
      this.detectedTotal++;
      this.reset();
      return { detected: true, cycle, cycleLength: lambda, tailLength, stateKey: state };
    }
    if (this.lambda === this.power) {
      // Teleport: the tortoise jumps to the hare and the search range doubles.
      this.tortoise = state;
      this.power *= 2;
      this.lambda = 0;
    }
    return { detected: false, cycle: [], cycleLength: 0, tailLength: 0, stateKey: state };
  }

  /** Forgets the stream; the lifetime detection count is kept. */
  reset(): void {
    this.power = 1;
    this.lambda = 0;
    this.tortoise = undefined;
    this.window = [];
    this.processed = 0;
  }

  /** Current counters. */
  stats(): CycleDetectorStats {
    return { stepsProcessed: this.processed, cyclesDetected: this.detectedTotal, windowSize: this.window.length, maxHistory: this.maxHistory };
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
