import { sortedRecord } from "../corpus/order.js";
import { firstNonBlank, isObject, trimmed, type JsonObject } from "../json.js";

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

// Decimal digits, with blanks around and an optional plus sign: a figure some writers quote.
const QUOTED_COUNT = /^\s*\+?\d+\s*$/;

// A figure: a positive safe integer, as a number or quoted in a string (as ccusage reads one); 0
// for anything else, including integers past 2^53 - 1, which no sum could add exactly.
function count(o: JsonObject, key: string): number {
  const raw = o[key];
  const v = typeof raw === "string" && QUOTED_COUNT.test(raw) ? Number(raw) : raw;
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

// Where a token_count names its model, first found first: the payload, then its info; in each,
// `model`, `model_name`, then `metadata.model`.
function modelIn(o: JsonObject): string {
  const metadata = o["metadata"];
  return firstNonBlank(o, "model", "model_name") || (isObject(metadata) ? trimmed(metadata, "model") : "");
}

/** The model a `token_count` payload names for its reply ("" when none; the producer names none). */
export function tokenCountModel(payload: JsonObject): string {
  const info = payload["info"];
  return modelIn(payload) || (isObject(info) ? modelIn(info) : "");
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

/** Slots of one figure set in a {@link ReplyFigures}: input, cached input, output, reasoning, total. */
export const FIGURE_SLOTS = 5;

/**
 * The two figure sets of one `token_count` event as numbers in place, for readers that make no
 * object per event: the cumulative totals in slots 0–4 and this reply's in slots 5–9.
 */
export class ReplyFigures {
  /** Totals, then this reply's figures, each in {@link FIGURE_SLOTS} order. */
  readonly slots = new Float64Array(2 * FIGURE_SLOTS);
  /** Whether slots 0–4 hold cumulative totals (`info.total_token_usage`). */
  hasTotal = false;
  /** Whether slots 5–9 hold this reply's figures (`info.last_token_usage`). */
  hasLast = false;

  /** Holds `usage`'s figures, as the readers that make objects give them. */
  setUsage(usage: TokenCountUsage): this {
    this.hasTotal = usage.total !== null;
    this.hasLast = usage.last !== null;
    if (usage.total !== null) writeFigures(this.slots, 0, usage.total);
    if (usage.last !== null) writeFigures(this.slots, FIGURE_SLOTS, usage.last);
    return this;
  }

  /** The figures held, as objects. */
  usage(): TokenCountUsage {
    return {
      total: this.hasTotal ? readFigures(this.slots, 0) : null,
      last: this.hasLast ? readFigures(this.slots, FIGURE_SLOTS) : null,
    };
  }
}

function writeFigures(slots: Float64Array, at: number, f: TokenFigures): void {
  slots[at] = f.input;
  slots[at + 1] = f.cachedInput;
  slots[at + 2] = f.output;
  slots[at + 3] = f.reasoning;
  slots[at + 4] = f.total;
}

/** The figure set in `slots[at..at + 5)` as a new sum. */
export function readFigures(slots: Float64Array, at: number): FigureSum {
  return {
    input: slots[at] ?? 0,
    cachedInput: slots[at + 1] ?? 0,
    output: slots[at + 2] ?? 0,
    reasoning: slots[at + 3] ?? 0,
    total: slots[at + 4] ?? 0,
  };
}

/**
 * Settles the raw figures read into `slots[at..at + 5)` as every reader reads them: cached input
 * at most the input, and a zero total read as input plus output.
 */
export function settleFigures(slots: Float64Array, at: number): void {
  const input = slots[at] ?? 0;
  slots[at + 1] = Math.min(slots[at + 1] ?? 0, input);
  if (!((slots[at + 4] ?? 0) > 0)) slots[at + 4] = input + (slots[at + 2] ?? 0);
}

/** Figures a sum owns and adds to in place. */
export type FigureSum = { -readonly [K in keyof TokenFigures]: number };

/** Adds the figure set in `slots[at..at + 5)` into `sum` in place. */
export function addSlotsInto(sum: FigureSum, slots: Float64Array, at: number): void {
  sum.input += slots[at] ?? 0;
  sum.cachedInput += slots[at + 1] ?? 0;
  sum.output += slots[at + 2] ?? 0;
  sum.reasoning += slots[at + 3] ?? 0;
  sum.total += slots[at + 4] ?? 0;
}

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
