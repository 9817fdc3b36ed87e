/** Streaming index: bounded-memory frequency (Count-Min) and cardinality (HyperLogLog). */

import { invalidArgument, StateError } from "../errors.js";
import { countMinAdd, countMinEstimate, emptyCountMin, type CountMinSketch } from "./count-min.js";
import { emptyHyperLogLog, hyperLogLogAdd, hyperLogLogEstimate, type HyperLogLog } from "./hyperloglog.js";

/** Persistent streaming statistics. */
export interface StreamingIndex {
  /** Frequencies. */
  readonly frequency: CountMinSketch;
  /** Distinct items. */
  readonly cardinality: HyperLogLog;
}

/** One frequency increment. */
export interface StreamingIncrement {
  /** Item observed. */
  readonly item: string;
  /** Positive number of occurrences. */
  readonly count: number;
}

/** The empty index with the reference's sketch sizes. */
export const EMPTY_STREAMING: StreamingIndex = { frequency: emptyCountMin(), cardinality: emptyHyperLogLog() };

function totalExceeded(field: string): StateError {
  return new StateError("TOTAL_EXCEEDED", `streaming total would exceed ${Number.MAX_SAFE_INTEGER}`, {
    field,
    metadata: { limit: String(Number.MAX_SAFE_INTEGER) },
  });
}

/** Rejects empty items and counts that are not positive safe integers. */
export function validateIncrement(inc: StreamingIncrement, field: string): void {
  if (typeof inc.item !== "string" || inc.item === "") throw invalidArgument(`${field}.item`, "streaming item must not be empty");
  if (!Number.isSafeInteger(inc.count) || inc.count <= 0) {
    // A zero increment would count an item as seen without an occurrence.
    throw invalidArgument(`${field}.count`, "streaming increment must be a positive integer");
  }
}

/** Adds occurrences of an item; the item also counts towards cardinality. */
export function streamingIncrement(index: StreamingIndex, inc: StreamingIncrement, field: string): StreamingIndex {
  validateIncrement(inc, field);
  // Counters never exceed the total, so keeping the total exact keeps every counter exact.
  if (inc.count > Number.MAX_SAFE_INTEGER - index.frequency.total) {
    throw totalExceeded(`${field}.count`);
  }
  return { frequency: countMinAdd(index.frequency, inc.item, inc.count), cardinality: hyperLogLogAdd(index.cardinality, inc.item) };
}

/**
 * Marks an item as seen. As in the reference, an item never counted before gets a count of 1
 * (Count-Min never undercounts, so an estimate of 0 means it was never counted); an item
 * already counted keeps its count. Either way it counts towards cardinality.
 */
export function streamingObserve(index: StreamingIndex, item: string, field: string): StreamingIndex {
  if (typeof item !== "string" || item === "") throw invalidArgument(field, "streaming item must not be empty");
  const cardinality = hyperLogLogAdd(index.cardinality, item);
  if (countMinEstimate(index.frequency, item) > 0) return { ...index, cardinality };
  if (index.frequency.total >= Number.MAX_SAFE_INTEGER) {
    throw totalExceeded(field);
  }
  return { frequency: countMinAdd(index.frequency, item, 1), cardinality };
}

/** Estimated frequency of `item`. */
export function streamingEstimate(index: StreamingIndex, item: string): number {
  return countMinEstimate(index.frequency, item);
}

/** Estimated number of distinct items. */
export function streamingCardinality(index: StreamingIndex): number {
  return hyperLogLogEstimate(index.cardinality);
}

/** Fixed memory footprint in bytes (8 per counter, 1 per register). */
export function streamingBytes(index: StreamingIndex): number {
  return index.frequency.counters.size * 8 + index.cardinality.registers.size;
}
