/** Receiving uploaded rollouts: stream protocol, limits, hashing and incremental decoding. */
export { receiveRollout, type ReceiveOptions } from "./receive-rollout.js";
export { RolloutBody, type DeclaredContent, type ReceivedRollout, type UploadLimits } from "./rollout-body.js";
export { LineSplitter } from "./line-splitter.js";
export { untilAborted } from "./until-aborted.js";
