/** Finding rollout files under a store root. */
export { walkRollouts, compareNewestFirst, type RolloutFile, type WalkResult, type WalkOptions } from "./walk-rollouts.js";
