// Picks the lines the usage fold needs from their first bytes, before any UTF-8 decoding or
// JSON.parse: the producer writes `{"timestamp":…,"type":…` and, for events,
// `"payload":{"type":…` first, so a short head names the record. A head in any other layout is
// decoded in full, so a line is skipped only when its head proves it carries no usage.

import { asciiBytes, BACKSLASH, literalAt, QUOTE } from "./ascii-bytes.js";

/** How the usage fold treats a line, judged by its head. */
export type UsageLineVerdict =
  /** Names a record that holds no usage: never decoded. */
  | "skip"
  /** A `session_meta`: decoded only while the rollout's identity is still unknown. */
  | "meta"
  /** A `token_count` event in the producer's layout: decoded by the usage fold's own short path. */
  | "token_count"
  /** A `turn_context` in the producer's layout: parsed, and read for its model alone. */
  | "turn_context"
  /** A head in another layout: decoded in full. */
  | "decode";

/** Leading bytes of a line the verdict reads; a shorter line is passed whole. */
export const USAGE_HEAD_BYTES = 160;

const OPEN_STAMPED = asciiBytes('{"timestamp":"');
const THEN_TYPE = asciiBytes('","type":"');
const OPEN_TYPED = asciiBytes('{"type":"');
const THEN_PAYLOAD_TYPE = asciiBytes(',"payload":{"type":"');
const EVENT_MSG = asciiBytes("event_msg");
const TOKEN_COUNT = asciiBytes("token_count");
const TURN_CONTEXT = asciiBytes("turn_context");
const SESSION_META = asciiBytes("session_meta");

// End of the string value starting at `from` (its closing quote), or -1 when it runs past the
// head or holds an escape (an escaped name could spell anything once decoded).
function stringEnd(bytes: Uint8Array, end: number, from: number): number {
  for (let i = from; i < end; i += 1) {
    const b = bytes[i];
    if (b === QUOTE) return i;
    if (b === BACKSLASH) return -1;
  }
  return -1;
}

function isName(bytes: Uint8Array, end: number, from: number, to: number, name: Uint8Array): boolean {
  return to - from === name.length && literalAt(bytes, from, end, name) >= 0;
}

/**
 * The verdict on a line from its first {@link USAGE_HEAD_BYTES} bytes (or the whole line when
 * shorter), given as `bytes[start..end)`. A skipped line would have decoded to no `token_count`,
 * `turn_context` or `session_meta` record, as long as the line names its type once (the producer
 * never repeats a member).
 */
export function usageLineVerdict(bytes: Uint8Array, start = 0, end = bytes.length): UsageLineVerdict {
  if (end <= start) return "skip";
  let at = literalAt(bytes, start, end, OPEN_STAMPED);
  if (at >= 0) {
    const stampEnd = stringEnd(bytes, end, at);
    if (stampEnd < 0) return "decode";
    at = literalAt(bytes, stampEnd, end, THEN_TYPE);
  } else at = literalAt(bytes, start, end, OPEN_TYPED);
  if (at < 0) return "decode";
  const typeEnd = stringEnd(bytes, end, at);
  if (typeEnd < 0) return "decode";
  if (isName(bytes, end, at, typeEnd, TURN_CONTEXT)) return "turn_context";
  if (isName(bytes, end, at, typeEnd, SESSION_META)) return "meta";
  if (!isName(bytes, end, at, typeEnd, EVENT_MSG)) return "skip";
  // An event whose payload type is not next is read in full.
  const eventAt = literalAt(bytes, typeEnd + 1, end, THEN_PAYLOAD_TYPE);
  if (eventAt < 0) return "decode";
  const eventEnd = stringEnd(bytes, end, eventAt);
  if (eventEnd < 0) return "decode";
  return isName(bytes, end, eventAt, eventEnd, TOKEN_COUNT) ? "token_count" : "skip";
}
