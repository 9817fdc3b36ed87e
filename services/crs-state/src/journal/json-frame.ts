/** JSON payloads in frames: the one place stored values are turned into and out of text. */

import { decodeFrame, encodeTextFrame, type FrameFault, type FrameKind } from "./frame.js";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The payload formats a reader accepts: one, or every integer from `oldest` to `newest`. */
export type FormatRange = number | { readonly oldest: number; readonly newest: number };

/** A decoded JSON frame, or why it did not decode. */
export type JsonFrameResult<T> = { readonly ok: true; readonly value: T } | ({ readonly ok: false } & FrameFault);

/** Frames `value` as JSON of `kind`. */
export function encodeJsonFrame(kind: FrameKind, value: unknown): Uint8Array {
  return encodeTextFrame(kind, JSON.stringify(value));
}

/**
 * Decodes a JSON frame of `kind` whose payload is an object with a `format` in `formats`; a
 * higher integer format is `unsupported` (written by a newer binary), any other `corrupt`.
 * `check` returns a reason when the value is unusable, or a fault of its own. Never throws.
 */
export function decodeJsonFrame<T extends { readonly format: number }>(
  kind: FrameKind,
  bytes: Uint8Array,
  formats: FormatRange,
  check: (value: T) => string | FrameFault | undefined = () => undefined,
): JsonFrameResult<T> {
  const frame = decodeFrame(kind, bytes);
  if (!frame.ok) return frame;
  let value: T;
  try {
    value = JSON.parse(decoder.decode(frame.payload)) as T;
  } catch (e) {
    return { ok: false, fault: "corrupt", reason: `payload is not JSON: ${(e as Error).message}` };
  }
  if (value === null || typeof value !== "object") return { ok: false, fault: "corrupt", reason: "payload is not an object" };
  const { oldest, newest } = typeof formats === "number" ? { oldest: formats, newest: formats } : formats;
  if (Number.isSafeInteger(value.format) && value.format > newest)
    return { ok: false, fault: "unsupported", reason: `${kind} format ${value.format} is newer than this server reads (${newest})` };
  if (!Number.isSafeInteger(value.format) || value.format < oldest)
    return { ok: false, fault: "corrupt", reason: `unknown ${kind} format ${String(value.format)}` };
  const problem = check(value);
  if (problem === undefined) return { ok: true, value };
  return typeof problem === "string" ? { ok: false, fault: "corrupt", reason: problem } : { ok: false, ...problem };
}
