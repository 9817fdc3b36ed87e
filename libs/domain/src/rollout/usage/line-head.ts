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
  /** A `token_count`, a `turn_context`, or a head in another layout: decoded in full. */
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

function has(head: Uint8Array, at: number, lit: Uint8Array): boolean {
  if (at + lit.length > head.length) return false;
  for (let i = 0; i < lit.length; i += 1) if (head[at + i] !== lit[i]) return false;
  return true;
}

// End of the string value starting at `from` (its closing quote), or -1 when it runs past the
// head or holds an escape (an escaped name could spell anything once decoded).
function stringEnd(head: Uint8Array, from: number): number {
  for (let i = from; i < head.length; i += 1) {
    const b = head[i];
    if (b === QUOTE) return i;
    if (b === BACKSLASH) return -1;
  }
  return -1;
}

function isName(head: Uint8Array, from: number, end: number, name: Uint8Array): boolean {
  return end - from === name.length && has(head, from, name);
}

/**
 * The verdict on a line from its first {@link USAGE_HEAD_BYTES} bytes (or the whole line when
 * shorter). A skipped line would have decoded to no `token_count`, `turn_context` or
 * `session_meta` record, as long as the line names its type once (the producer never repeats a
 * member).
 */
export function usageLineVerdict(head: Uint8Array): UsageLineVerdict {
  if (head.length === 0) return "skip";
  let at: number;
  if (has(head, 0, OPEN_STAMPED)) {
    const stampEnd = stringEnd(head, OPEN_STAMPED.length);
    if (stampEnd < 0 || !has(head, stampEnd, THEN_TYPE)) return "decode";
    at = stampEnd + THEN_TYPE.length;
  } else if (has(head, 0, OPEN_TYPED)) at = OPEN_TYPED.length;
  else return "decode";
  const typeEnd = stringEnd(head, at);
  if (typeEnd < 0) return "decode";
  if (isName(head, at, typeEnd, TURN_CONTEXT)) return "decode";
  if (isName(head, at, typeEnd, SESSION_META)) return "meta";
  if (!isName(head, at, typeEnd, EVENT_MSG)) return "skip";
  // An event whose payload type is not next is read in full.
  const payloadAt = typeEnd + 1;
  if (!has(head, payloadAt, THEN_PAYLOAD_TYPE)) return "decode";
  const eventAt = payloadAt + THEN_PAYLOAD_TYPE.length;
  const eventEnd = stringEnd(head, eventAt);
  if (eventEnd < 0) return "decode";
  return isName(head, eventAt, eventEnd, TOKEN_COUNT) ? "decode" : "skip";
}
