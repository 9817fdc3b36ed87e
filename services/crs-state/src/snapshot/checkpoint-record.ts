/** Durable named checkpoints: a state document under a caller's id, framed as kind 3. */

import type { StateDocument } from "@crs/domain/state";
import { decodeJsonFrame, encodeJsonFrame, type JsonFrameResult } from "../journal/json-frame.js";

/** Version of the checkpoint payload. */
export const CHECKPOINT_FORMAT = 1;

/** A stored checkpoint. */
export interface CheckpointRecord {
  /** {@link CHECKPOINT_FORMAT}. */
  readonly format: number;
  /** The checkpoint's id. */
  readonly checkpointId: string;
  /** Generation captured. */
  readonly generation: number;
  /** Unix ms it was taken. */
  readonly createdAt: number;
  /** The captured state. */
  readonly document: StateDocument;
}

/** Frames a checkpoint for the store. */
export function encodeCheckpoint(cp: CheckpointRecord): Uint8Array {
  return encodeJsonFrame("checkpoint", cp);
}

/** Decodes and checks a checkpoint filed under `checkpointId`; never throws. */
export function decodeCheckpoint(bytes: Uint8Array, checkpointId: string): JsonFrameResult<CheckpointRecord> {
  return decodeJsonFrame<CheckpointRecord>("checkpoint", bytes, CHECKPOINT_FORMAT, (c) =>
    c.checkpointId !== checkpointId ? `checkpoint says id ${String(c.checkpointId)}, filed under ${checkpointId}` : undefined,
  );
}
