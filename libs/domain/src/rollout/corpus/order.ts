// UTF-16 puts a character from U+E000 to U+FFFF after one beyond U+FFFF (a surrogate pair), where
// UTF-8 bytes, and Go's string order, put it before; the two orders differ only there.
const HIGH_UNIT = /[\ud800-\uffff]/;

// A UTF-16 code unit's rank in code point order: surrogates after U+E000-U+FFFF.
function unitRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  return unit >= 0xd800 ? unit + 0x2000 : unit;
}

/** Byte-order (UTF-8) string comparison, as Go orders strings, so rankings do not depend on locale. */
export function compareText(a: string, b: string): number {
  if (!(HIGH_UNIT.test(a) && HIGH_UNIT.test(b))) return a < b ? -1 : a > b ? 1 : 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return Math.sign(unitRank(x) - unitRank(y));
  }
  return Math.sign(a.length - b.length);
}

/** Adds two count maps, returning a map with sorted keys. */
export function sumCounts<K extends string>(
  a: Readonly<Partial<Record<K, number>>>,
  b: Readonly<Partial<Record<K, number>>>,
): Partial<Record<K, number>> {
  // A count seen on one side is added to zero, as it would be by a running sum.
  return mergeRecords<number>(a as Record<string, number>, b as Record<string, number>, {
    both: (x, y) => 0 + x + y,
    left: (x) => 0 + x,
    right: (y) => 0 + y,
  }) as Partial<Record<K, number>>;
}

/** How {@link mergeRecords} combines a key's values: on both sides, or on one (by default the value itself). */
export interface RecordMerge<V> {
  readonly both: (x: V, y: V) => V;
  readonly left?: (x: V) => V;
  readonly right?: (y: V) => V;
}

// The keys of a record when they enumerate in byte order, as those of a merged record do (keys
// that read as array indices enumerate first, by number, and break it); null otherwise, or when
// a key is `__proto__`, which plain assignment treats apart.
function ascendingKeys(o: object): string[] | null {
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i += 1) {
    const k = keys[i] as string;
    if (k === "__proto__" || (i > 0 && compareText(keys[i - 1] as string, k) >= 0)) return null;
  }
  return keys;
}

/**
 * Merges two records key by key into one with byte-ordered keys. Records whose keys already
 * enumerate in that order (every record a merge or a fold made) are walked side by side, with
 * no sort; others are sorted first.
 */
export function mergeRecords<V>(a: Readonly<Record<string, V>>, b: Readonly<Record<string, V>>, merge: RecordMerge<V>): Record<string, V> {
  const left = merge.left ?? ((x: V) => x);
  const right = merge.right ?? ((y: V) => y);
  const ka = ascendingKeys(a);
  const kb = ascendingKeys(b);
  if (ka === null || kb === null) {
    const out = new Map<string, V>();
    for (const [k, v] of Object.entries(a)) out.set(k, left(v));
    for (const [k, v] of Object.entries(b)) {
      const x = a[k];
      out.set(k, Object.hasOwn(a, k) && x !== undefined ? merge.both(x, v) : right(v));
    }
    return sortedRecord(out);
  }
  const entries: [string, V][] = [];
  let i = 0;
  let j = 0;
  while (i < ka.length || j < kb.length) {
    const x = ka[i];
    const y = kb[j];
    if (y === undefined || (x !== undefined && compareText(x, y) < 0)) {
      entries.push([x as string, left(a[x as string] as V)]);
      i += 1;
    } else if (x === undefined || compareText(y, x) < 0) {
      entries.push([y, right(b[y] as V)]);
      j += 1;
    } else {
      entries.push([x, merge.both(a[x] as V, b[y] as V)]);
      i += 1;
      j += 1;
    }
  }
  return Object.fromEntries(entries);
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
  // Samples that do not interleave (one side empty, or wholly below the other) are joined as they are.
  const lastA = a[a.length - 1];
  const lastB = b[b.length - 1];
  if (lastA === undefined || lastB === undefined || lastA <= (b[0] as number)) return a.concat(b);
  if (lastB < (a[0] as number)) return b.concat(a);
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

// Samples at least this long are sorted as a typed array, which calls no comparator per pair
// (about twice as fast from here on; below, making the typed array costs more than it saves).
const TYPED_SORT_MIN = 16;

/** Ascending copy of a sample. */
export function sortedSample(values: Iterable<number>): number[] {
  const sample = [...values];
  if (sample.length < TYPED_SORT_MIN) return sample.sort((x, y) => x - y);
  // A typed array puts -0 before 0 and NaN last, where the comparator leaves them in input
  // order: a sample holding either is sorted with the comparator, so the order is the same.
  for (const v of sample) if (Number.isNaN(v) || Object.is(v, -0)) return sample.sort((x, y) => x - y);
  return Array.from(Float64Array.from(sample).sort());
}
