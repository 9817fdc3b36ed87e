// Reads a `token_count` line in the producer's exact layout with one regular expression, instead
// of trimming it and JSON.parse-ing it into objects: these lines are a quarter of a rollout's
// lines, a quarter of the parse work of a scan and most of the usage reader's work, and the
// expression runs as compiled native code from the first line on. The answer must equal the general decoder's, so a
// line is taken only when the expression proves what JSON.parse would make of it: the members in
// the producer's order and nothing else, figures as plain integers, and a `rate_limits` value
// that is valid JSON (never read). Any other line is left to the general decoder.

import { parseTimestamp } from "../time.js";
import type { TokenCountUsage, TokenFigures } from "./figures.js";

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

// Figures as the general decoder makes them: cached input at most the input, and a zero total
// read as input plus output.
function figuresAt(m: RegExpExecArray, first: number): TokenFigures {
  const input = Number(m[first]);
  const output = Number(m[first + 2]);
  const total = Number(m[first + 4]);
  return {
    input,
    cachedInput: Math.min(Number(m[first + 1]), input),
    output,
    reasoning: Number(m[first + 3]),
    total: total > 0 ? total : input + output,
  };
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
  return { usage: { total: figuresAt(m, 2), last: figuresAt(m, 7) }, timestamp, tsMs };
}
