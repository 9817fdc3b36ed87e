/** Feeds a recorded step's state key to its session's cycle detector, as one engine mutation. */

import type { CycleOptions, Mutation } from "../engine/engine-types.js";
import type { StateEngine } from "../engine/engine.js";
import type { StepRecord } from "../steps/step-record.js";
import { stepStateKey } from "./cycle-detector.js";
import type { CycleCheckResult } from "./cycle-transition.js";

/** Checks `step` for a closed loop with the `<decision>:<tool>:<outcome>:<actor>` key of the reference. */
export function checkCycleOnStep(engine: StateEngine, step: StepRecord, opts: CycleOptions = {}): Mutation<CycleCheckResult> {
  return engine.checkCycle(step.sessionId, stepStateKey(step), opts);
}
