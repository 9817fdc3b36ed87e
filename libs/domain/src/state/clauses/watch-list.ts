/**
 * The clauses of one watch slot, in the order they were registered. A slot of up to
 * {@link SMALL_LIST} clauses is a frozen array: a check walks it fastest and copying it is cheap.
 * A larger one is an OrderedMap keyed by clause id, so registering or unregistering a clause costs
 * O(log n) instead of a copy of the list: a platform learning thousands of clauses over the same
 * literals one at a time paid n²/2 copies with arrays. The form depends only on the size, so the
 * same clauses in the same order make the same kind of list however they got there.
 */

import { OrderedMap } from "immutable";
import type { Clause } from "./clause.js";

/**
 * The parts of a clause a check reads. None of them changes when a clause is used or learned
 * again, so the index keeps its own small copy and a check never reads the clause map.
 */
export type WatchedClause = Pick<Clause, "id" | "learnedAt" | "literals" | "scope" | "sessionId">;

/** The clauses of one slot; see the module comment for its two forms. */
export type WatchList = readonly WatchedClause[] | OrderedMap<string, WatchedClause>;

/** The largest list kept as an array. */
export const SMALL_LIST = 8;

/** The empty list. */
export const NO_CLAUSES: WatchList = Object.freeze([]);

/** How many clauses `list` holds. */
export function watchCount(list: WatchList): number {
  return Array.isArray(list) ? list.length : (list as OrderedMap<string, WatchedClause>).size;
}

/** The clauses of `list` in registration order. */
export function watchedIn(list: WatchList): Iterable<WatchedClause> {
  return Array.isArray(list) ? (list as readonly WatchedClause[]) : (list as OrderedMap<string, WatchedClause>).values();
}

/** The list of `entries` (distinct ids, registration order), in the form its size calls for; `entries` is frozen when kept. */
export function watchListOf(entries: WatchedClause[]): WatchList {
  if (entries.length === 0) return NO_CLAUSES;
  if (entries.length <= SMALL_LIST) return Object.freeze(entries);
  return OrderedMap<string, WatchedClause>().withMutations((m) => {
    for (const w of entries) m.set(w.id, w);
  });
}

/** `list` with `entry` registered last. */
export function appendWatch(list: WatchList, entry: WatchedClause): WatchList {
  if (!Array.isArray(list)) return (list as OrderedMap<string, WatchedClause>).set(entry.id, entry);
  return watchListOf([...(list as readonly WatchedClause[]), entry]);
}

/** `list` without the clause `id`, the others in their order. */
export function withoutWatch(list: WatchList, id: string): WatchList {
  if (Array.isArray(list)) return Object.freeze((list as readonly WatchedClause[]).filter((w) => w.id !== id));
  const rest = (list as OrderedMap<string, WatchedClause>).remove(id);
  return rest.size > SMALL_LIST ? rest : watchListOf([...rest.values()]);
}
