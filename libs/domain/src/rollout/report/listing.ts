/** Options of the one-rollout JSON reports. */
export interface ListingOptions {
  /**
   * Most entries each per-task or per-item list holds (tasks, orphans, turn ids, behaviour rows,
   * compactions); beyond it the list is cut and its `<list>_truncated` key is set. Unset: no cut.
   */
  readonly maxRows?: number;
}

/** A report list cut to its first entries, and whether any were left out. */
export interface Listed<T> {
  readonly items: readonly T[];
  readonly truncated: boolean;
}

/**
 * The first `max` entries of a report list (all of them when `max` is undefined). Only the listing
 * is cut: the counts beside a list are computed before it, over every entry.
 */
export function firstListed<T>(items: readonly T[], max: number | undefined): Listed<T> {
  if (max === undefined || items.length <= max) return { items, truncated: false };
  return { items: items.slice(0, max), truncated: true };
}
