/**
 * Post-tool samples are kept per cell, one cell per (context band, ordinal bucket) pair, so each
 * span's gap and tool time are stored once; a band's or a bucket's samples are the merge of its
 * cells, made when a report asks for them.
 */

import { CONTEXT_BANDS, ORDINAL_BUCKETS, type ContextBand, type OrdinalBucket } from "../analytics/post-tool.js";
import type { AscendingSample } from "./percentiles.js";

// Every key made once, so a span's cell costs a lookup, not a new string.
const KEYS = new Map<ContextBand, Map<OrdinalBucket, string>>(
  CONTEXT_BANDS.map((band) => [band, new Map(ORDINAL_BUCKETS.map((bucket) => [bucket, `${band} ${bucket}`]))]),
);

/** The key of a cell: `<band> <bucket>`. */
export function cellKey(band: ContextBand, bucket: OrdinalBucket): string {
  return KEYS.get(band)?.get(bucket) ?? `${band} ${bucket}`;
}

/** The samples of every cell whose band (`side` 0) or bucket (`side` 1) is `key`, as one ascending sample. */
export function cellsOf(cells: Readonly<Record<string, readonly number[]>>, side: 0 | 1, key: string): SortedRuns {
  return new SortedRuns(Object.entries(cells).flatMap(([cell, samples]) => (cell.split(" ")[side] === key ? [samples] : [])));
}

/** The samples of every cell, as one ascending sample. */
export function allCells(cells: Readonly<Record<string, readonly number[]>>): SortedRuns {
  return new SortedRuns(Object.values(cells));
}

/**
 * Ascending runs read as their sorted union without building it: the i-th smallest value is
 * found by binary searches over the runs (a report reads a handful of ranks from millions of
 * samples, so merging or sorting them all would cost far more).
 */
export class SortedRuns implements AscendingSample {
  readonly #runs: readonly (readonly number[])[];
  /** Samples in all runs. */
  readonly length: number;

  /** `runs` must each be ascending. */
  constructor(runs: readonly (readonly number[])[]) {
    this.#runs = runs.filter((r) => r.length > 0);
    this.length = this.#runs.reduce((n, r) => n + r.length, 0);
  }

  /** How many samples are at most `v`. */
  atMost(v: number): number {
    let n = 0;
    for (const r of this.#runs) n += upperBound(r, v);
    return n;
  }

  /** How many samples are over `v`. */
  over(v: number): number {
    return this.length - this.atMost(v);
  }

  /** The `index`-th smallest sample (0-based), as in the sorted union; undefined out of range. */
  at(index: number): number | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    // The answer is the smallest sample with more than `index` samples at most it; in each run,
    // the first such position is found by bisection, and the least of those is the answer.
    let best: number | undefined;
    for (const r of this.#runs) {
      let lo = 0;
      let hi = r.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.atMost(r[mid] as number) > index) hi = mid;
        else lo = mid + 1;
      }
      const found = r[lo];
      if (found !== undefined && (best === undefined || found < best)) best = found;
    }
    return best;
  }
}

// Samples of an ascending run that are at most `v`.
function upperBound(run: readonly number[], v: number): number {
  let lo = 0;
  let hi = run.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((run[mid] as number) <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
