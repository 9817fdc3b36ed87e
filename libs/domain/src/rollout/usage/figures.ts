import { sortedRecord } from "../corpus/order.js";
import { isObject, type JsonObject } from "../json.js";

// Token figures as `token_count` events carry them. `input` includes `cachedInput`, and `output`
// includes `reasoning`, as the producer counts them.

/** One set of token figures. */
export interface TokenFigures {
  readonly input: number;
  readonly cachedInput: number;
  readonly output: number;
  readonly reasoning: number;
  readonly total: number;
}

/** The two figure sets of one `token_count` event. */
export interface TokenCountUsage {
  /** Cumulative since the session started (`info.total_token_usage`), null when absent. */
  readonly total: TokenFigures | null;
  /** This reply alone (`info.last_token_usage`), null when absent. */
  readonly last: TokenFigures | null;
}

/** All zeros, the identity of {@link addFigures}. */
export const ZERO_FIGURES: TokenFigures = { input: 0, cachedInput: 0, output: 0, reasoning: 0, total: 0 };

function count(o: JsonObject, key: string): number {
  const v = o[key];
  return typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : 0;
}

function figuresOf(value: unknown): TokenFigures | null {
  if (!isObject(value)) return null;
  const input = count(value, "input_tokens");
  const output = count(value, "output_tokens");
  const total = count(value, "total_tokens");
  return {
    input,
    cachedInput: Math.min(count(value, "cached_input_tokens"), input),
    output,
    reasoning: count(value, "reasoning_output_tokens"),
    // Some writers leave total_tokens out; it is input plus output by definition.
    total: total > 0 ? total : input + output,
  };
}

/** The usage of a `token_count` payload, null when it carries none (`info: null`). */
export function tokenCountUsage(payload: JsonObject): TokenCountUsage | null {
  const info = payload["info"];
  if (!isObject(info)) return null;
  const total = figuresOf(info["total_token_usage"]);
  const last = figuresOf(info["last_token_usage"]);
  return total === null && last === null ? null : { total, last };
}

/** Sum of two figure sets. */
export function addFigures(a: TokenFigures, b: TokenFigures): TokenFigures {
  return {
    input: a.input + b.input,
    cachedInput: a.cachedInput + b.cachedInput,
    output: a.output + b.output,
    reasoning: a.reasoning + b.reasoning,
    total: a.total + b.total,
  };
}

/** Figures a sum owns and adds to in place. */
export type FigureSum = { -readonly [K in keyof TokenFigures]: number };

/** Adds `f` into `sum` in place: a sum over many replies then makes no object per reply. */
export function addFiguresInto(sum: FigureSum, f: TokenFigures): void {
  sum.input += f.input;
  sum.cachedInput += f.cachedInput;
  sum.output += f.output;
  sum.reasoning += f.reasoning;
  sum.total += f.total;
}

/** Copies of the sums, in key order: a result then never changes as its sums go on adding. */
export function sortedFigures(sums: Iterable<readonly [string, FigureSum]>): Record<string, TokenFigures> {
  return sortedRecord(Array.from(sums, ([key, f]): [string, TokenFigures] => [key, { ...f }]));
}

/** `a − b` when no figure goes down, else null (the counter restarted). */
export function growthOf(a: TokenFigures, b: TokenFigures): TokenFigures | null {
  const d = {
    input: a.input - b.input,
    cachedInput: a.cachedInput - b.cachedInput,
    output: a.output - b.output,
    reasoning: a.reasoning - b.reasoning,
    total: a.total - b.total,
  };
  return d.input < 0 || d.cachedInput < 0 || d.output < 0 || d.reasoning < 0 || d.total < 0 ? null : d;
}

/** True when every figure is zero. */
export function isZeroFigures(f: TokenFigures): boolean {
  return f.input === 0 && f.cachedInput === 0 && f.output === 0 && f.reasoning === 0 && f.total === 0;
}
