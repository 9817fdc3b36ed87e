/**
 * The two orders in which clause lifetimes end, so expiry and session end visit only the clauses
 * they remove (O(k log n)) where a scan read every clause: all clauses by last refresh (the TTL
 * counts from `refreshedAt`), and each session's session-scoped clauses by id. Both are
 * persistent, so every snapshot keeps its own version. A use moves `lastUsed` only, so recording
 * that a clause blocked a decision touches neither order.
 */

import { Map as IMap } from "immutable";
import { compareUtf8 } from "../bytes.js";
import { emptySortedSet, sortedAdd, sortedFirst, sortedRemove, sortedSetOf, sortedValues, type SortedSet } from "../sorted-set.js";
import type { Clause } from "./clause.js";

/** What the refresh order reads of a clause. */
export type RefreshKey = Pick<Clause, "id" | "refreshedAt">;

/** Session id -> ids of that session's session-scoped clauses, byte-wise. No entry is empty. */
export type SessionClauses = IMap<string, SortedSet<string>>;

/** Refresh order: oldest refresh first, ties by id byte-wise. */
function refreshOrder(a: RefreshKey, b: RefreshKey): number {
  if (a.refreshedAt !== b.refreshedAt) return a.refreshedAt < b.refreshedAt ? -1 : 1;
  return compareUtf8(a.id, b.id);
}

/** The empty refresh order. */
export const NO_REFRESHES: SortedSet<RefreshKey> = emptySortedSet(refreshOrder);

/** The empty session index. */
export const NO_SESSION_CLAUSES: SessionClauses = IMap();

const NO_IDS: SortedSet<string> = emptySortedSet(compareUtf8);

/** The key kept for `c`: two fields, so the order never holds on to an outdated clause. */
export function refreshKey(c: RefreshKey): RefreshKey {
  return Object.freeze({ id: c.id, refreshedAt: c.refreshedAt });
}

/** The refresh order of `clauses` (distinct ids), built in one pass after a sort. */
export function refreshOrderOf(clauses: readonly Clause[]): SortedSet<RefreshKey> {
  return sortedSetOf(clauses.map(refreshKey).sort(refreshOrder), refreshOrder);
}

/** The session index of `clauses` (distinct ids), each session's set built in one pass. */
export function sessionIndexOf(clauses: readonly Clause[]): SessionClauses {
  const ids = new Map<string, string[]>();
  for (const c of clauses) {
    if (c.scope !== "session") continue;
    const list = ids.get(c.sessionId);
    if (list === undefined) ids.set(c.sessionId, [c.id]);
    else list.push(c.id);
  }
  return IMap<string, SortedSet<string>>().withMutations((m) => {
    for (const [session, list] of ids) m.set(session, sortedSetOf(list.sort(compareUtf8), compareUtf8));
  });
}

/** `index` with `c` listed under its session when it is session-scoped. */
export function withSessionClause(index: SessionClauses, c: Pick<Clause, "id" | "scope" | "sessionId">): SessionClauses {
  if (c.scope !== "session") return index;
  return index.set(c.sessionId, sortedAdd(index.get(c.sessionId) ?? NO_IDS, c.id));
}

/** `index` without `c`; a session left without clauses loses its entry. */
export function withoutSessionClause(index: SessionClauses, c: Pick<Clause, "id" | "scope" | "sessionId">): SessionClauses {
  const ids = c.scope === "session" ? index.get(c.sessionId) : undefined;
  if (ids === undefined) return index;
  const rest = sortedRemove(ids, c.id);
  return rest.size === 0 ? index.remove(c.sessionId) : index.set(c.sessionId, rest);
}

/** The time a clause check is made and the TTL in force: a clause past its TTL then no longer acts. */
export interface ClauseClock {
  /** Unix ms of the check. */
  readonly at: number;
  /** Time-to-live, counted from `refreshedAt`. */
  readonly ttlMs: number;
}

/** True when a clause last refreshed at `refreshedAt` has outlived its TTL at `clock.at`: the one rule of expiry. */
export function isExpired(refreshedAt: number, clock: ClauseClock): boolean {
  return clock.at - refreshedAt > clock.ttlMs;
}

/** True when some clause of `order` has expired at `clock.at`: only the oldest refresh need be read. O(log n). */
export function anyExpired(order: SortedSet<RefreshKey>, clock: ClauseClock): boolean {
  const oldest = sortedFirst(order);
  return oldest !== undefined && isExpired(oldest.refreshedAt, clock);
}

/**
 * Ids of the clauses whose TTL has passed at `clock.at` ({@link isExpired}), oldest refresh
 * first. The test is monotone in `refreshedAt`, so the expired clauses are a prefix of the order
 * and the walk stops at the first clause still alive.
 */
export function expiredIds(order: SortedSet<RefreshKey>, clock: ClauseClock): string[] {
  const out: string[] = [];
  for (const k of sortedValues(order)) {
    if (!isExpired(k.refreshedAt, clock)) break;
    out.push(k.id);
  }
  return out;
}

/** Ids of the session-scoped clauses of `sessionId`, byte-wise. */
export function sessionClauseIds(index: SessionClauses, sessionId: string): string[] {
  const ids = index.get(sessionId);
  return ids === undefined ? [] : [...sortedValues(ids)];
}
