/**
 * Durable named checkpoints. Format 2, written: a small head (frame kind 3) holding everything a
 * listing reports, and a body (frame kind 5) holding the state document, stored beside it; the
 * head names its body by length and CRC, so a listing reads heads alone and a restore checks the
 * body it reads is the one its head was written with. Format 1, still read: the whole checkpoint,
 * document included, in one kind-3 frame and no body.
 */

import { isUnsupportedDocument, type StateDocument } from "@crs/domain/state";
import { FRAME_HEADER_BYTES, storedChecksum } from "../journal/frame.js";
import { decodeJsonFrame, encodeJsonFrame, type JsonFrameResult } from "../journal/json-frame.js";

/** Version of the checkpoint head this server writes; every version from 1 is read. */
export const CHECKPOINT_FORMAT = 2;
/** Version of the checkpoint body this server writes and reads. */
const CHECKPOINT_BODY_FORMAT = 1;

/** A checkpoint as the host takes and restores it. */
export interface CheckpointRecord {
  /** The checkpoint's id. */
  readonly checkpointId: string;
  /** Generation captured. */
  readonly generation: number;
  /** Unix ms it was taken. */
  readonly createdAt: number;
  /** The captured state. */
  readonly document: StateDocument;
}

/** What a listing reports of a checkpoint, known from its head alone. */
export interface CheckpointSummary {
  /** The checkpoint's id. */
  readonly checkpointId: string;
  /** Generation captured. */
  readonly generation: number;
  /** Unix ms it was taken. */
  readonly createdAt: number;
  /** Stored bytes, head and body. */
  readonly sizeBytes: number;
  /** The state document inside is in a format only another server reads. */
  readonly unsupportedDocument: boolean;
}

/** A checkpoint's stored values; a format-1 checkpoint has no body. */
export interface CheckpointValues {
  /** Framed head (format 2) or whole checkpoint (format 1). */
  readonly head: Uint8Array;
  /** Framed body, format 2 only. */
  readonly body?: Uint8Array;
}

/** A format-1 checkpoint: the whole of it in what is now the head's place. */
interface WholeCheckpoint extends CheckpointRecord {
  readonly format: 1;
}

/** A format-2 head. */
interface CheckpointHead {
  readonly format: 2;
  readonly checkpointId: string;
  readonly generation: number;
  readonly createdAt: number;
  /** `formatVersion` of the document in the body. */
  readonly documentFormat: number;
  /** Length of the body frame. */
  readonly bodyBytes: number;
  /** CRC the body frame stores. */
  readonly bodyCrc: number;
}

/** A format-1 body. */
interface CheckpointBody {
  readonly format: number;
  readonly checkpointId: string;
  readonly document: StateDocument;
}

const HEAD_NUMBERS = ["generation", "createdAt", "documentFormat", "bodyBytes", "bodyCrc"] as const;

/** The summary of `cp` stored in `sizeBytes` bytes. */
export function checkpointSummary(cp: CheckpointRecord, sizeBytes: number): CheckpointSummary {
  const { checkpointId, generation, createdAt } = cp;
  return { checkpointId, generation, createdAt, sizeBytes, unsupportedDocument: isUnsupportedDocument(cp.document) };
}

/** Frames a checkpoint for the store, in format {@link CHECKPOINT_FORMAT}. */
export function encodeCheckpoint(cp: CheckpointRecord): Required<CheckpointValues> {
  const { checkpointId, generation, createdAt, document } = cp;
  const bodyValue: CheckpointBody = { format: CHECKPOINT_BODY_FORMAT, checkpointId, document };
  const body = encodeJsonFrame("checkpointBody", bodyValue);
  const head: CheckpointHead = {
    format: 2,
    checkpointId,
    generation,
    createdAt,
    documentFormat: document.formatVersion,
    bodyBytes: body.length,
    bodyCrc: storedChecksum(body),
  };
  return { head: encodeJsonFrame("checkpoint", head), body };
}

function decodeHead(head: Uint8Array, checkpointId: string): JsonFrameResult<CheckpointHead | WholeCheckpoint> {
  return decodeJsonFrame<CheckpointHead | WholeCheckpoint>("checkpoint", head, { oldest: 1, newest: CHECKPOINT_FORMAT }, (c) => {
    if (c.checkpointId !== checkpointId) return `checkpoint says id ${String(c.checkpointId)}, filed under ${checkpointId}`;
    if (c.format === 1) return undefined;
    const bad = HEAD_NUMBERS.find((k) => !Number.isSafeInteger(c[k]) || c[k] < 0);
    return bad === undefined ? undefined : `checkpoint head field ${bad} is ${String(c[bad])}`;
  });
}

/**
 * What a listing reports of a checkpoint whose head (or format-1 value) is `head`: a format-2 head
 * is decoded and CRC-checked alone, its body neither read nor checked; a format-1 value is checked
 * whole, as it holds the checkpoint whole. Never throws.
 */
export function summarizeCheckpoint(head: Uint8Array, checkpointId: string): JsonFrameResult<CheckpointSummary> {
  const d = decodeHead(head, checkpointId);
  if (!d.ok) return d;
  const h = d.value;
  if (h.format === 1) return { ok: true, value: checkpointSummary(h, head.length) };
  const { generation, createdAt } = h;
  const unsupportedDocument = isUnsupportedDocument({ formatVersion: h.documentFormat });
  return { ok: true, value: { checkpointId, generation, createdAt, sizeBytes: head.length + h.bodyBytes, unsupportedDocument } };
}

function corrupt(reason: string): { readonly ok: false; readonly fault: "corrupt"; readonly reason: string } {
  return { ok: false, fault: "corrupt", reason };
}

function decodeBody(body: Uint8Array | undefined, head: CheckpointHead): JsonFrameResult<StateDocument> {
  if (body === undefined) return corrupt("its body is missing");
  if (body.length !== head.bodyBytes) return corrupt(`its body has ${body.length} bytes, its head says ${head.bodyBytes}`);
  if (body.length >= FRAME_HEADER_BYTES && storedChecksum(body) !== head.bodyCrc)
    return corrupt(`its body is not the one its head names (body crc ${storedChecksum(body)}, head says ${head.bodyCrc})`);
  const d = decodeJsonFrame<CheckpointBody>("checkpointBody", body, CHECKPOINT_BODY_FORMAT, (b) =>
    b.checkpointId !== head.checkpointId ? `body says id ${String(b.checkpointId)}, its head ${head.checkpointId}` : undefined,
  );
  if (d.ok) return { ok: true, value: d.value.document };
  // A body of the length its head names is not an unfinished write: short inside is damage.
  return { ok: false, fault: d.fault === "unsupported" ? "unsupported" : "corrupt", reason: `body: ${d.reason}` };
}

/**
 * Decodes and checks a whole checkpoint filed under `checkpointId`: head and body, each against
 * its CRC, and the body against the length and CRC its head names. Never throws.
 */
export function decodeCheckpoint(
  stored: CheckpointValues,
  checkpointId: string,
): JsonFrameResult<{ readonly checkpoint: CheckpointRecord; readonly summary: CheckpointSummary }> {
  const d = decodeHead(stored.head, checkpointId);
  if (!d.ok) return d;
  const h = d.value;
  // A format-1 checkpoint is whole in its head; a body beside one is not its own, so it is not read.
  if (h.format === 1) {
    const checkpoint: CheckpointRecord = { checkpointId, generation: h.generation, createdAt: h.createdAt, document: h.document };
    return { ok: true, value: { checkpoint, summary: checkpointSummary(checkpoint, stored.head.length) } };
  }
  const document = decodeBody(stored.body, h);
  if (!document.ok) return document;
  const checkpoint: CheckpointRecord = { checkpointId, generation: h.generation, createdAt: h.createdAt, document: document.value };
  return { ok: true, value: { checkpoint, summary: checkpointSummary(checkpoint, stored.head.length + h.bodyBytes) } };
}
