/** State snapshots and durable checkpoints: framed, CRC-checked state documents. */

export { STATE_SNAPSHOT_FORMAT, decodeSnapshot, encodeSnapshot } from "./state-snapshot.js";
export type { StateSnapshot } from "./state-snapshot.js";
export { CHECKPOINT_FORMAT, checkpointSummary, decodeCheckpoint, encodeCheckpoint, summarizeCheckpoint } from "./checkpoint-record.js";
export type { CheckpointRecord, CheckpointSummary, CheckpointValues } from "./checkpoint-record.js";
