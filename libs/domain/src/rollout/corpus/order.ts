/** Byte-order string comparison, so rankings do not depend on locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Adds two count maps, returning a map with sorted keys. */
export function sumCounts<K extends string>(
  a: Readonly<Partial<Record<K, number>>>,
  b: Readonly<Partial<Record<K, number>>>,
): Partial<Record<K, number>> {
  const out = new Map<string, number>();
  for (const m of [a, b]) {
    for (const [k, v] of Object.entries(m) as [string, number][]) out.set(k, (out.get(k) ?? 0) + v);
  }
  return sortedRecord(out) as Partial<Record<K, number>>;
}

/** Builds a plain object from entries, keys in byte order. */
export function sortedRecord<V>(entries: Iterable<[string, V]>): Record<string, V> {
  return Object.fromEntries([...entries].sort(([x], [y]) => compareText(x, y)));
}

/** Tallies keys into a sorted count map. */
export function tallyKeys(keys: Iterable<string>): Record<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return sortedRecord(m);
}

/** Merges two ascending number samples into one ascending sample. */
export function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x <= y)) {
      out.push(x ?? 0);
      i += 1;
    } else {
      out.push(y);
      j += 1;
    }
  }
  return out;
}

/** Ascending copy of a sample. */
export function sortedSample(values: Iterable<number>): number[] {
  return [...values].sort((x, y) => x - y);
}
