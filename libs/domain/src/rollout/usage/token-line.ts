// Reads a `token_count` line in the producer's exact layout with one regular expression, instead
// of trimming it and JSON.parse-ing it into objects: these lines are a quarter of a rollout's
// lines, a quarter of the parse work of a scan and most of the usage reader's work, and the
// expression runs as compiled native code from the first line on. The answer must equal the general decoder's, so a
// line is taken only when the expression proves what JSON.parse would make of it: the members in
// the producer's order and nothing else, figures as plain integers, and a `rate_limits` value
// that is valid JSON (never read). Any other line is left to the general decoder.

import { parseTimestamp, parseTimestampAt } from "../time.js";
import { asciiBytes, BACKSLASH, literalAt, QUOTE } from "./ascii-bytes.js";
import { FIGURE_SLOTS, ReplyFigures, settleFigures, type TokenCountUsage } from "./figures.js";

/** What a producer-layout `token_count` line carries: its usage (null for `info: null`) and time. */
export interface TokenLine {
  readonly usage: TokenCountUsage | null;
  /** The line's `timestamp` as written ("" when empty). */
  readonly timestamp: string;
  /** Unix ms, null when the line is undated or its timestamp does not parse. */
  readonly tsMs: number | null;
}

// JSON pieces over one-byte text. A string holds no quote, backslash or control character except
// as a valid escape; bytes from 0x80 up stand for UTF-8 text, which decodes inside a string to
// characters JSON.parse accepts (U+FFFD where the bytes are not UTF-8).
// The loop is unrolled (plain characters, then escapes each followed by plain characters), which
// the expression engine runs much faster than an alternation tried at every character.
const STRING = String.raw`"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"`;
const NUMBER = String.raw`-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?`;
const SCALAR = `(?:${STRING}|${NUMBER}|true|false|null)`;
const objectOf = (value: string): string => String.raw`\{(?:${STRING}:${value}(?:,${STRING}:${value})*)?\}`;
// `rate_limits`: a scalar, or objects nested two deep (the producer's shape); arrays, blanks
// between tokens and deeper nesting go to the general decoder.
const RATE_LIMITS = `(?:${SCALAR}|${objectOf(`(?:${SCALAR}|${objectOf(SCALAR)})`)})`;
// At most 15 digits, no leading zero: always a safe integer, the figure the general decoder reads.
const INT = String.raw`(0|[1-9]\d{0,14})`;
const FIGURES = String.raw`\{"input_tokens":${INT},"cached_input_tokens":${INT},"output_tokens":${INT},"reasoning_output_tokens":${INT},"total_tokens":${INT}\}`;
// The timestamp is printable ASCII without quote or backslash, so its one-byte text is its text.
const HEAD = '{"timestamp":"';
const TYPES = '","type":"event_msg","payload":{"type":"token_count","info":';
const LINE = new RegExp(
  String.raw`^\{"timestamp":"([\x20\x21\x23-\x5b\x5d-\x7e]*)","type":"event_msg","payload":\{"type":"token_count","info":` +
    String.raw`(?:null|\{"total_token_usage":${FIGURES},"last_token_usage":${FIGURES},"model_context_window":${INT}\}),` +
    String.raw`"rate_limits":${RATE_LIMITS}\}\}[ \t\r\v\f]*$`,
);

// The figure set of groups `first..first + 5` of a match into `slots[at..at + 5)`, settled as the
// general decoder settles figures.
function figuresAt(m: RegExpExecArray, first: number, slots: Float64Array, at: number): void {
  for (let k = 0; k < FIGURE_SLOTS; k += 1) slots[at + k] = Number(m[first + k]);
  settleFigures(slots, at);
}

// Whether the line opens as a producer-layout token_count: a few comparisons turn the other
// lines away before the expression is entered.
function opensAsTokenLine(text: string): boolean {
  if (!text.startsWith(HEAD)) return false;
  const stampEnd = text.indexOf('"', HEAD.length);
  return stampEnd > 0 && text.startsWith(TYPES, stampEnd);
}

/**
 * The usage and time of a `token_count` line, when the line is in the producer's exact layout;
 * undefined when it is not, and the general decoder must read it. The line is given as its text,
 * or as one-byte text (each byte one character, as a `latin1` decoding makes it): the expression
 * proves the same JSON either way.
 */
export function readTokenLine(text: string): TokenLine | undefined {
  if (!opensAsTokenLine(text)) return undefined;
  const m = LINE.exec(text);
  if (m === null) return undefined;
  const timestamp = m[1] ?? "";
  const tsMs = timestamp === "" ? null : parseTimestamp(timestamp);
  if (m[2] === undefined) return { usage: null, timestamp, tsMs };
  const read = new ReplyFigures();
  figuresAt(m, 2, read.slots, 0);
  figuresAt(m, 7, read.slots, FIGURE_SLOTS);
  read.hasTotal = read.hasLast = true;
  return { usage: read.usage(), timestamp, tsMs };
}

// The same grammar read straight from a line's bytes, for the usage reader: no text is made, no
// expression entered, the figures read as the digits go by. It takes exactly the lines the
// expression takes over the same bytes' one-byte text (pinned by the tests). Each reader below
// takes the bytes, a position and the end, and answers the position after what it read, or -1
// when the bytes there are not what it reads (and -1 in gives -1 out, so reads chain).

const B_HEAD = asciiBytes(HEAD);
const B_TYPES = asciiBytes(TYPES);
const B_NULL = asciiBytes("null");
const B_TRUE = asciiBytes("true");
const B_FALSE = asciiBytes("false");
const B_TOTAL = asciiBytes('{"total_token_usage":');
const B_LAST = asciiBytes(',"last_token_usage":');
const B_WINDOW = asciiBytes(',"model_context_window":');
const B_RATE = asciiBytes(',"rate_limits":');
const B_INPUT = asciiBytes('{"input_tokens":');
const B_CACHED = asciiBytes(',"cached_input_tokens":');
const B_OUTPUT = asciiBytes(',"output_tokens":');
const B_REASONING = asciiBytes(',"reasoning_output_tokens":');
const B_TOTAL_TOKENS = asciiBytes(',"total_tokens":');
const ZERO = 0x30;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;

function byte(b: Uint8Array, at: number, end: number, c: number): number {
  return at >= 0 && at < end && b[at] === c ? at + 1 : -1;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= ZERO && c <= ZERO + 9;
}

function digits(b: Uint8Array, at: number, end: number): number {
  let i = at;
  while (i < end && isDigit(b[i])) i += 1;
  return i;
}

// Where the context window is read to: usage does not keep it.
const WINDOW = new Float64Array(1);

// `0|[1-9]\d{0,14}` into `slots[slot]`.
function int(b: Uint8Array, at: number, end: number, slots: Float64Array, slot: number): number {
  if (at < 0 || at >= end || !isDigit(b[at])) return -1;
  if (b[at] === ZERO) {
    slots[slot] = 0;
    return at + 1;
  }
  // Read as the digits go by: at most 15, so the value stays a safe integer.
  let value = 0;
  let i = at;
  for (; i < end; i += 1) {
    const c = b[i] ?? 0;
    if (!isDigit(c)) break;
    if (i - at === 15) return -1;
    value = value * 10 + (c - ZERO);
  }
  slots[slot] = value;
  return i;
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && (isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}

// STRING: no quote, backslash or control byte but as a valid escape.
function string(b: Uint8Array, at: number, end: number): number {
  let i = byte(b, at, end, QUOTE);
  if (i < 0) return -1;
  while (i < end) {
    const c = b[i] ?? 0;
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c !== BACKSLASH) i += 1;
    else {
      const e = i + 1 < end ? b[i + 1] : undefined;
      if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) i += 2;
      else if (e === 0x75 && i + 6 <= end && isHex(b[i + 2]) && isHex(b[i + 3]) && isHex(b[i + 4]) && isHex(b[i + 5])) i += 6;
      else return -1;
    }
  }
  return -1;
}

// NUMBER: what follows a number in this grammar is never a digit, `.`, `e` or `E`, so reading
// greedily decides as the expression's backtracking would.
function number(b: Uint8Array, at: number, end: number): number {
  let i = at < end && b[at] === 0x2d ? at + 1 : at;
  if (!(i < end && isDigit(b[i]))) return -1;
  // A leading zero stands alone.
  i = b[i] === ZERO ? i + 1 : digits(b, i, end);
  if (i < end && b[i] === 0x2e) {
    if (!(i + 1 < end && isDigit(b[i + 1]))) return -1;
    i = digits(b, i + 1, end);
  }
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
    i += 1;
    if (i < end && (b[i] === 0x2b || b[i] === 0x2d)) i += 1;
    if (!(i < end && isDigit(b[i]))) return -1;
    i = digits(b, i, end);
  }
  return i;
}

function scalar(b: Uint8Array, at: number, end: number): number {
  if (at < 0 || at >= end) return -1;
  const c = b[at];
  if (c === QUOTE) return string(b, at, end);
  if (c === 0x74) return literalAt(b, at, end, B_TRUE);
  if (c === 0x66) return literalAt(b, at, end, B_FALSE);
  if (c === 0x6e) return literalAt(b, at, end, B_NULL);
  return number(b, at, end);
}

// A scalar or, while `depth` allows, an object of values one level shallower. The rate limits are
// read through this one call whatever their shape: a separate call for each shape would leave the
// optimized reader without feedback for the shape it had not met yet (`null` in older rollouts,
// objects in newer ones), and the first line of the other shape would throw that code away.
function value(b: Uint8Array, at: number, end: number, depth: number): number {
  return depth > 0 && at >= 0 && at < end && b[at] === OPEN ? object(b, at, end, depth - 1) : scalar(b, at, end);
}

// `objectOf(value)`, with values a scalar or, `depth` more times, an object of them.
function object(b: Uint8Array, at: number, end: number, depth: number): number {
  let i = byte(b, at, end, OPEN);
  if (i < 0) return -1;
  if (i < end && b[i] === CLOSE) return i + 1;
  for (;;) {
    i = value(b, byte(b, string(b, i, end), end, COLON), end, depth);
    if (i < 0 || i >= end) return -1;
    if (b[i] === CLOSE) return i + 1;
    if (b[i] !== COMMA) return -1;
    i += 1;
  }
}

// One figure set, `{"input_tokens":…,"total_tokens":…}`, into `slots[at..at + 5)`, settled.
function figureSet(b: Uint8Array, at: number, end: number, slots: Float64Array, to: number): number {
  let i = int(b, literalAt(b, at, end, B_INPUT), end, slots, to);
  i = int(b, literalAt(b, i, end, B_CACHED), end, slots, to + 1);
  i = int(b, literalAt(b, i, end, B_OUTPUT), end, slots, to + 2);
  i = int(b, literalAt(b, i, end, B_REASONING), end, slots, to + 3);
  i = int(b, literalAt(b, i, end, B_TOTAL_TOKENS), end, slots, to + 4);
  i = byte(b, i, end, CLOSE);
  if (i >= 0) settleFigures(slots, to);
  return i;
}

function isStampByte(c: number | undefined): boolean {
  return c !== undefined && c >= 0x20 && c <= 0x7e && c !== QUOTE && c !== BACKSLASH;
}

function isTrailingBlank(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c || c === 0x0d;
}

/** What {@link readTokenLineInto} read: the figures (neither set for `info: null`) and the time. */
export class TokenLineRead extends ReplyFigures {
  /** Unix ms, null when the line is undated or its timestamp does not parse. */
  tsMs: number | null = null;
}

/**
 * {@link readTokenLine} over a line's bytes, `bytes[start..end)`, read in place into `into`, which
 * holds the same usage and time as for the bytes' one-byte text (the timestamp's text is not made);
 * false, with `into` in no defined state, when the line is not in the producer's layout.
 */
export function readTokenLineInto(b: Uint8Array, start: number, lineEnd: number, into: TokenLineRead): boolean {
  // Trailing blanks are cut first, so the last check is one comparison: a loop over them at the
  // end would run on a rare line alone, and the optimized reader, compiled without it, would be
  // thrown away at the first such line.
  let end = lineEnd;
  while (end > start && isTrailingBlank(b[end - 1])) end -= 1;
  const stampStart = literalAt(b, start, end, B_HEAD);
  if (stampStart < 0) return false;
  let i = stampStart;
  while (i < end && isStampByte(b[i])) i += 1;
  const stampEnd = i;
  i = literalAt(b, i, end, B_TYPES);
  if (i < 0) return false;
  const afterNull = literalAt(b, i, end, B_NULL);
  const slots = into.slots;
  if (afterNull >= 0) i = afterNull;
  else {
    i = figureSet(b, literalAt(b, i, end, B_TOTAL), end, slots, 0);
    i = figureSet(b, literalAt(b, i, end, B_LAST), end, slots, FIGURE_SLOTS);
    i = byte(b, int(b, literalAt(b, i, end, B_WINDOW), end, WINDOW, 0), end, CLOSE);
  }
  into.hasTotal = into.hasLast = afterNull < 0;
  // RATE_LIMITS: objects nested two deep.
  i = value(b, literalAt(b, i, end, B_RATE), end, 2);
  i = byte(b, byte(b, i, end, CLOSE), end, CLOSE);
  if (i !== end) return false;
  into.tsMs = stampEnd === stampStart ? null : parseTimestampAt(b, stampStart, stampEnd);
  return true;
}

/** {@link readTokenLineInto}, answering as {@link readTokenLine} does (without the timestamp's text). */
export function readTokenLineBytes(b: Uint8Array, start: number, end: number): Omit<TokenLine, "timestamp"> | undefined {
  const read = new TokenLineRead();
  if (!readTokenLineInto(b, start, end, read)) return undefined;
  return { usage: read.hasTotal ? read.usage() : null, tsMs: read.tsMs };
}
