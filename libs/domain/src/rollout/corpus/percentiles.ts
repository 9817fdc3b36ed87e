/** Nearest-rank summary of a sample. */
export interface Percentiles {
  readonly n: number;
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/** An ascending sample: an array, or a view that reads its i-th smallest value without holding it. */
export interface AscendingSample {
  readonly length: number;
  at(index: number): number | undefined;
}

function nearestRank(sorted: AscendingSample, q: number): number {
  const n = sorted.length;
  const idx = Math.min(n - 1, Math.max(0, Math.floor(q * n + 0.5) - 1));
  return sorted.at(idx) ?? 0;
}

/** Nearest-rank p50/p90/p95/p99/max of an ascending sample; zeros when empty. */
export function percentiles(sorted: AscendingSample): Percentiles {
  if (sorted.length === 0) return { n: 0, p50: 0, p90: 0, p95: 0, p99: 0, max: 0 };
  return {
    n: sorted.length,
    p50: nearestRank(sorted, 0.5),
    p90: nearestRank(sorted, 0.9),
    p95: nearestRank(sorted, 0.95),
    p99: nearestRank(sorted, 0.99),
    max: sorted.at(sorted.length - 1) ?? 0,
  };
}

/** Linear-interpolation percentile (p in 0..100) of an ascending sample, truncated to an integer. */
export function interpolatedPercentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const k = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(k);
  const base = sorted[lo] ?? 0;
  const next = sorted[lo + 1];
  return Math.trunc(next === undefined ? base : base + (k - lo) * (next - base));
}
