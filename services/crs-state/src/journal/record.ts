/**
 * The journal record: one per committed mutation, framed by `frame.ts` as kind 1. Its payload
 * is JSON (see the journal README for the field list and a golden fixture).
 */

import { STATE_EVENT_FORMAT, type StateEvent } from "@crs/domain/state";
import { decodeJsonFrame, encodeJsonFrame, type JsonFrameResult } from "./json-frame.js";

/** Version of the record payload; a reader refuses versions it does not know. */
export const JOURNAL_RECORD_FORMAT = 1;
/**
 * The newest engine event format a record's `event` may be in (the engine's own constant). A
 * record says the lowest format that can express its event (`eventFormatOf`), so records of the
 * older kinds stay readable by older binaries; a reader refuses a newer one as unsupported.
 */
export const STATE_EVENT_FORMAT_IN_JOURNAL = STATE_EVENT_FORMAT;

/** The idempotency facts stored with a mutation so a retry can be answered after a restart. */
export interface StoredRequest {
  /** Client request id. */
  readonly requestId: string;
  /** RPC method name. */
  readonly method: string;
  /** Fingerprint of the request content, hex ("" when the caller gave none). */
  readonly fingerprint: string;
  /** The encoded response, base64. */
  readonly answer: string;
  /** Generation the mutation left (the header of a replayed answer). */
  readonly generation: number;
}

/** One journal record. */
export interface JournalRecord {
  /** {@link JOURNAL_RECORD_FORMAT}. */
  readonly format: number;
  /** Per-project sequence number: 1, 2, 3, ... never reused. */
  readonly seq: number;
  /** Unix ms the record was committed. */
  readonly committedAt: number;
  /** Format of `event`: its own `formatVersion`, 1 when there is none (at most {@link STATE_EVENT_FORMAT_IN_JOURNAL}). */
  readonly eventFormat: number;
  /** The engine's event, or null for a remembered request that changed nothing. */
  readonly event: StateEvent | null;
  /** Idempotency facts, when the request carried an id. */
  readonly request: StoredRequest | null;
}

/** Frames a record for the store. */
export function encodeRecord(record: JournalRecord): Uint8Array {
  return encodeJsonFrame("journalRecord", record);
}

/** Decodes and checks a record stored under `seq`; never throws. */
export function decodeRecord(bytes: Uint8Array, seq: number): JsonFrameResult<JournalRecord> {
  return decodeJsonFrame<JournalRecord>("journalRecord", bytes, JOURNAL_RECORD_FORMAT, (r) => {
    if (!Number.isSafeInteger(r.eventFormat) || r.eventFormat < 1) return `unknown event format ${String(r.eventFormat)}`;
    if (r.eventFormat > STATE_EVENT_FORMAT_IN_JOURNAL)
      return {
        fault: "unsupported",
        reason: `event format ${r.eventFormat} is newer than this server reads (${STATE_EVENT_FORMAT_IN_JOURNAL})`,
      };
    if (r.seq !== seq) return `record says seq ${String(r.seq)}, stored under ${seq}`;
    return undefined;
  });
}
