// Picks the lines the usage fold needs from their first bytes, before any UTF-8 decoding or
// JSON.parse: the producer writes `{"timestamp":…,"type":…` and, for events,
// `"payload":{"type":…` first, so a short head names the record. A head in any other layout is
// decoded in full, so a line is skipped only when its head proves it carries no usage.

/** How the usage fold treats a line, judged by its head. */
export type UsageLineVerdict =
  /** Names a record that holds no usage: never decoded. */
  | "skip"
  /** A `session_meta`: decoded only while the rollout's identity is still unknown. */
  | "meta"
  /** A `token_count` event in the producer's layout: decoded by the usage fold's own short path. */
  | "token_count"
  /** A `turn_context`, or a head in another layout: decoded in full. */
  | "decode";

/** Leading bytes of a line the verdict reads; a shorter line is passed whole. */
export const USAGE_HEAD_BYTES = 160;

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const OPEN_STAMPED = ascii('{"timestamp":"');
const THEN_TYPE = ascii('","type":"');
const OPEN_TYPED = ascii('{"type":"');
const THEN_PAYLOAD_TYPE = ascii(',"payload":{"type":"');
const EVENT_MSG = ascii("event_msg");
const TOKEN_COUNT = ascii("token_count");
const TURN_CONTEXT = ascii("turn_context");
const SESSION_META = ascii("session_meta");
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// The head is `bytes[0..end)`, read in place (a line inside a larger read buffer).
function has(bytes: Uint8Array, end: number, at: number, lit: Uint8Array): boolean {
  if (at + lit.length > end) return false;
  for (let i = 0; i < lit.length; i += 1) if (bytes[at + i] !== lit[i]) return false;
  return true;
}

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
  return to - from === name.length && has(bytes, end, from, name);
}

/**
 * The verdict on a line from its first {@link USAGE_HEAD_BYTES} bytes (or the whole line when
 * shorter), given as `bytes[start..end)`. A skipped line would have decoded to no `token_count`,
 * `turn_context` or `session_meta` record, as long as the line names its type once (the producer
 * never repeats a member).
 */
export function usageLineVerdict(bytes: Uint8Array, start = 0, end = bytes.length): UsageLineVerdict {
  if (end <= start) return "skip";
  let at: number;
  if (has(bytes, end, start, OPEN_STAMPED)) {
    const stampEnd = stringEnd(bytes, end, start + OPEN_STAMPED.length);
    if (stampEnd < 0 || !has(bytes, end, stampEnd, THEN_TYPE)) return "decode";
    at = stampEnd + THEN_TYPE.length;
  } else if (has(bytes, end, start, OPEN_TYPED)) at = start + OPEN_TYPED.length;
  else return "decode";
  const typeEnd = stringEnd(bytes, end, at);
  if (typeEnd < 0) return "decode";
  if (isName(bytes, end, at, typeEnd, TURN_CONTEXT)) return "decode";
  if (isName(bytes, end, at, typeEnd, SESSION_META)) return "meta";
  if (!isName(bytes, end, at, typeEnd, EVENT_MSG)) return "skip";
  // An event whose payload type is not next is read in full.
  const payloadAt = typeEnd + 1;
  if (!has(bytes, end, payloadAt, THEN_PAYLOAD_TYPE)) return "decode";
  const eventAt = payloadAt + THEN_PAYLOAD_TYPE.length;
  const eventEnd = stringEnd(bytes, end, eventAt);
  if (eventEnd < 0) return "decode";
  return isName(bytes, end, eventAt, eventEnd, TOKEN_COUNT) ? "token_count" : "skip";
}
