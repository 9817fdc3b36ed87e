/**
 * Listings kept between pages. A paged read computes its whole filtered, sorted list to cut one
 * page from it; the pages after the first read the same snapshot (the token pins its
 * generation), so the list is kept per (project incarnation, generation, list, filters) and the
 * next page only slices it. Entries are checked against the snapshot's state value, so a list
 * is never served for another state, and the least recently used beyond the bound are dropped.
 */

/** Lists kept unless configured otherwise. */
export const DEFAULT_LISTS_KEPT = 128;

interface Entry {
  readonly state: object;
  readonly rows: readonly unknown[];
}

/** A bounded, least-recently-used memory of computed listings. */
export class ListCache {
  private readonly entries = new Map<string, Entry>();
  /** Lists computed (misses), for tests and benchmarks. */
  computed = 0;

  /** Keeps at most `max` lists. */
  constructor(private readonly max = DEFAULT_LISTS_KEPT) {}

  /** The rows listed under `key` for `state`, computing them with `compute` when not kept. */
  rows<Row>(key: string, state: object, compute: () => readonly Row[]): readonly Row[] {
    const hit = this.entries.get(key);
    this.entries.delete(key);
    if (hit !== undefined && hit.state === state) {
      this.entries.set(key, hit);
      return hit.rows as readonly Row[];
    }
    const rows = compute();
    this.computed++;
    this.entries.set(key, { state, rows });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    return rows;
  }

  /** Forgets every kept listing (the next page of each computes it again). */
  clear(): void {
    this.entries.clear();
  }
}

/** The listings of every paged read of this process. */
export const listings = new ListCache();
