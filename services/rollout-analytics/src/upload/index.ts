/** Receiving uploaded rollouts: stream protocol, limits and hashing; decoding is the reader's. */
export { receiveRollout, type ReceiveOptions } from "./receive-rollout.js";
export { RolloutBody, type DeclaredContent, type ReceivedRollout, type UploadLimits } from "./rollout-body.js";
