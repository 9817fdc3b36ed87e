/**
 * State snapshots: the whole state of a project after journal record `seq`, with the
 * remembered request ids, framed (kind 2, CRC-checked) and filed under `seq`. Recovery loads
 * the newest snapshot that verifies and replays the journal after it.
 */

import type { StateDocument } from "@crs/domain/state";
import type { StoredRequest } from "../journal/record.js";
import { decodeJsonFrame, encodeJsonFrame, type JsonFrameResult } from "../journal/json-frame.js";

/** Version of the snapshot payload. */
export const STATE_SNAPSHOT_FORMAT = 1;

/** A state snapshot's payload. */
export interface StateSnapshot {
  /** {@link STATE_SNAPSHOT_FORMAT}. */
  readonly format: number;
  /** Uid of the project it belongs to (a snapshot filed under another project is refused). */
  readonly projectUid: string;
  /** Last journal record the snapshot includes (0: before the first record). */
  readonly seq: number;
  /** Unix ms the snapshot was taken. */
  readonly takenAt: number;
  /** The engine's state document (it carries the generation). */
  readonly document: StateDocument;
  /** Remembered request ids, oldest first. */
  readonly requests: readonly StoredRequest[];
}

/** Frames a snapshot for the store. */
export function encodeSnapshot(snapshot: StateSnapshot): Uint8Array {
  return encodeJsonFrame("stateSnapshot", snapshot);
}

/** Decodes and checks a snapshot filed under `seq` for project `projectUid`; never throws. */
export function decodeSnapshot(bytes: Uint8Array, seq: number, projectUid: string): JsonFrameResult<StateSnapshot> {
  return decodeJsonFrame<StateSnapshot>("stateSnapshot", bytes, STATE_SNAPSHOT_FORMAT, (s) => {
    if (s.seq !== seq) return `snapshot says seq ${String(s.seq)}, filed under ${seq}`;
    if (s.projectUid !== projectUid) return `snapshot belongs to project uid ${String(s.projectUid)}`;
    if (s.document === null || typeof s.document !== "object" || !Array.isArray(s.requests))
      return "snapshot lacks its document or requests";
    return undefined;
  });
}
