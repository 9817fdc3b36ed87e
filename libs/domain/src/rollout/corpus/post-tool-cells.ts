/**
 * Post-tool samples are kept per cell, one cell per (context band, ordinal bucket) pair, so each
 * span's gap and tool time are stored once; a band's or a bucket's samples are the merge of its
 * cells, made when a report asks for them.
 */

import { CONTEXT_BANDS, ORDINAL_BUCKETS, type ContextBand, type OrdinalBucket } from "../analytics/post-tool.js";

// Every key made once, so a span's cell costs a lookup, not a new string.
const KEYS = new Map<ContextBand, Map<OrdinalBucket, string>>(
  CONTEXT_BANDS.map((band) => [band, new Map(ORDINAL_BUCKETS.map((bucket) => [bucket, `${band} ${bucket}`]))]),
);

/** The key of a cell: `<band> <bucket>`. */
export function cellKey(band: ContextBand, bucket: OrdinalBucket): string {
  return KEYS.get(band)?.get(bucket) ?? `${band} ${bucket}`;
}

/** The ascending samples of every cell whose band (`side` 0) or bucket (`side` 1) is `key`. */
export function cellsOf(cells: Readonly<Record<string, readonly number[]>>, side: 0 | 1, key: string): number[] {
  return sortedUnion(Object.entries(cells).flatMap(([cell, samples]) => (cell.split(" ")[side] === key ? [samples] : [])));
}

/** The ascending samples of every cell. */
export function allCells(cells: Readonly<Record<string, readonly number[]>>): number[] {
  return sortedUnion(Object.values(cells));
}

// One copy and one numeric sort, however many parts: merging them two by two copies each often.
function sortedUnion(parts: readonly (readonly number[])[]): number[] {
  const all = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return Array.from(all.sort());
}

/** The keys (bands with `side` 0, buckets with 1) that have samples, in no particular order. */
export function cellSides(cells: Readonly<Record<string, readonly number[]>>, side: 0 | 1): string[] {
  return [...new Set(Object.keys(cells).map((cell) => cell.split(" ")[side] as string))];
}
