/**
 * Framing shared by every stored value (journal records, state snapshots, checkpoints, project
 * metadata): a 10-byte header, then a UTF-8 JSON payload.
 *
 *   byte 0      frame version (1)
 *   byte 1      kind (1 journal record, 2 state snapshot, 3 checkpoint (its head), 4 project metadata,
 *               5 checkpoint body)
 *   bytes 2..5  payload length, uint32 big-endian
 *   bytes 6..9  CRC-32 (IEEE, zlib polynomial) of bytes 0..5 followed by the payload, big-endian
 *   bytes 10..  payload
 */

import { crc32 } from "node:zlib";

/** Version of the frame header. */
export const FRAME_VERSION = 1;
/** Bytes before the payload. */
export const FRAME_HEADER_BYTES = 10;

/** What a frame holds; stored in byte 1. */
export const FRAME_KINDS = { journalRecord: 1, stateSnapshot: 2, checkpoint: 3, projectMeta: 4, checkpointBody: 5 } as const;
/** One of {@link FRAME_KINDS}. */
export type FrameKind = keyof typeof FRAME_KINDS;

/**
 * Why a frame did not decode: `torn` = shorter than it says (an interrupted write), `unsupported`
 * = intact but written in a version newer than this code reads (never repaired or skipped: a
 * newer binary reads it), `corrupt` = anything else.
 */
export type FrameFault = { readonly fault: "torn" | "corrupt" | "unsupported"; readonly reason: string };

/** Result of {@link decodeFrame}. */
export type FrameResult = { readonly ok: true; readonly payload: Uint8Array } | ({ readonly ok: false } & FrameFault);

function checksum(header: Uint8Array, payload: Uint8Array): number {
  return crc32(payload, crc32(header.subarray(0, 6)));
}

/** Frames `payload` as `kind`. */
export function encodeFrame(kind: FrameKind, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER_BYTES + payload.length);
  out.set(payload, FRAME_HEADER_BYTES);
  return sealFrame(kind, out);
}

/** Frames `text` as `kind`, its UTF-8 written straight into the frame. */
export function encodeTextFrame(kind: FrameKind, text: string): Uint8Array {
  const length = Buffer.byteLength(text, "utf8");
  // A journal record fits Node's shared pool; a fresh ArrayBuffer per record costs ten times as much.
  const buf = Buffer.allocUnsafe(FRAME_HEADER_BYTES + length);
  buf.write(text, FRAME_HEADER_BYTES, length, "utf8");
  return sealFrame(kind, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
}

// Writes the header of a frame whose payload is in place after it.
function sealFrame(kind: FrameKind, out: Uint8Array): Uint8Array {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  out[0] = FRAME_VERSION;
  out[1] = FRAME_KINDS[kind];
  view.setUint32(2, out.byteLength - FRAME_HEADER_BYTES);
  view.setUint32(6, checksum(out, out.subarray(FRAME_HEADER_BYTES)));
  return out;
}

/** The CRC a frame stores (bytes 6..9), unchecked; a frame's identity for a value that names it. */
export function storedChecksum(frame: Uint8Array): number {
  return new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(6);
}

/** Checks a frame's header, length and CRC; never throws. */
export function decodeFrame(kind: FrameKind, bytes: Uint8Array): FrameResult {
  if (bytes.length < FRAME_HEADER_BYTES)
    return { ok: false, fault: "torn", reason: `frame of ${bytes.length} bytes is shorter than its header` };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(2);
  const have = bytes.length - FRAME_HEADER_BYTES;
  // A version or kind byte that is wrong on a full-length frame is damage, not an unfinished write.
  if (have < length) return { ok: false, fault: "torn", reason: `payload has ${have} of ${length} bytes` };
  if (have > length) return { ok: false, fault: "corrupt", reason: `payload has ${have} bytes, header says ${length}` };
  const payload = bytes.subarray(FRAME_HEADER_BYTES);
  const stored = view.getUint32(6);
  const computed = checksum(bytes, payload);
  if (stored !== computed) return { ok: false, fault: "corrupt", reason: `crc stored=${hex8(stored)} computed=${hex8(computed)}` };
  if ((bytes[0] as number) > FRAME_VERSION)
    return { ok: false, fault: "unsupported", reason: `frame version ${bytes[0]} is newer than this server reads (${FRAME_VERSION})` };
  if (bytes[0] !== FRAME_VERSION) return { ok: false, fault: "corrupt", reason: `unknown frame version ${bytes[0]}` };
  if (bytes[1] !== FRAME_KINDS[kind])
    return { ok: false, fault: "corrupt", reason: `frame kind ${bytes[1]} where ${FRAME_KINDS[kind]} (${kind}) was expected` };
  return { ok: true, payload };
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, "0");
}
