/** Clause store: add with duplicate refresh, LRU cap, TTL and session expiry, checks. */

import { Map as IMap } from "immutable";
import { compareUtf8 } from "../bytes.js";
import { invalidArgument, StateError } from "../errors.js";
import { frozenWith } from "../freeze.js";
import { clauseSignature, clauseString, validateClause, type Assignment, type Clause, type ClauseScope, type Literal } from "./clause.js";
import { emptySortedSet, sortedAdd, sortedFirst, sortedRemove, sortedSetOf, type SortedSet } from "../sorted-set.js";
import { EMPTY_WATCHES, earliestViolated, unwatchClause, watchClause, type CheckScope, type WatchIndex } from "./watch-index.js";
import type { WatchedClause } from "./watch-list.js";
import type { SignalSource } from "../signals.js";
import {
  anyExpired,
  expiredIds,
  isExpired,
  NO_REFRESHES,
  NO_SESSION_CLAUSES,
  refreshKey,
  refreshOrderOf,
  sessionClauseIds,
  sessionIndexOf,
  withoutSessionClause,
  withSessionClause,
  type ClauseClock,
  type RefreshKey,
  type SessionClauses,
} from "./clause-lifetimes.js";

/** Persistent clause state. */
export interface ClauseStore {
  /** id -> clause. */
  readonly clauses: IMap<string, Clause>;
  /** {@link duplicateKey} -> id, for duplicate detection. */
  readonly bySignature: IMap<string, string>;
  /** Watched-literal index. */
  readonly watches: WatchIndex;
  /** The clauses in eviction order ({@link evictionOrder}), so eviction does not scan them all. */
  readonly byUse: SortedSet<Clause>;
  /** The clauses by last refresh, so expiry visits only the expired ones. */
  readonly byRefresh: SortedSet<RefreshKey>;
  /** Each session's session-scoped clause ids, so ending a session visits only its own. */
  readonly bySession: SessionClauses;
}

/** What a caller supplies to learn a clause. */
export interface ClauseInput {
  /** Unique id. */
  readonly id: string;
  /** Literals. */
  readonly literals: readonly Literal[];
  /** Origin; must be hard. */
  readonly source: SignalSource;
  /** Failure kind that produced it. */
  readonly failureType: string;
  /** Lifetime scope. @defaultValue "project" */
  readonly scope?: ClauseScope;
  /** Owning session; required for session scope. @defaultValue "" */
  readonly sessionId?: string;
  /** When it was learned; 0 or absent means now. */
  readonly learnedAt?: number;
}

/** Result of adding a clause. */
export interface AddClauseResult {
  /** The new store. */
  readonly store: ClauseStore;
  /** The stored clause (the existing one when refreshed). */
  readonly clause: Clause;
  /** "added", or "refreshed" when an equal literal set was already stored. */
  readonly outcome: "added" | "refreshed";
  /** Id of the clause evicted to make room, if any. */
  readonly evicted: string | undefined;
}

/** Outcome of checking an assignment against the clauses. */
export interface ClauseCheckResult {
  /** True when some clause is violated. */
  readonly conflict: boolean;
  /** The violated clause chosen (earliest learned, then smallest id). */
  readonly violatedClause: Clause | undefined;
  /** Human-readable reason, "" without conflict. */
  readonly reason: string;
}

/**
 * Key shared by duplicates: the literal set plus the lifetime. A session clause duplicates only
 * clauses of the same session, so ending a session never takes a longer-lived clause with it.
 */
export function duplicateKey(c: Pick<Clause, "literals" | "scope" | "sessionId">): string {
  return c.scope === "session" ? JSON.stringify(["session", c.sessionId, clauseSignature(c.literals)]) : clauseSignature(c.literals);
}

/** Eviction order: least recently used first (smallest lastUsed), ties by id byte-wise. */
function evictionOrder(a: Clause, b: Clause): number {
  if (a.lastUsed !== b.lastUsed) return a.lastUsed < b.lastUsed ? -1 : 1;
  return compareUtf8(a.id, b.id);
}

/** The ordered indexes of `clauses` (distinct ids): eviction, refresh and session orders, each built in one pass after a sort. */
export function orderIndexesOf(clauses: readonly Clause[]): Pick<ClauseStore, "byUse" | "byRefresh" | "bySession"> {
  return {
    byUse: sortedSetOf([...clauses].sort(evictionOrder), evictionOrder),
    byRefresh: refreshOrderOf(clauses),
    bySession: sessionIndexOf(clauses),
  };
}

/** The empty store. */
export const EMPTY_CLAUSES: ClauseStore = {
  clauses: IMap(),
  bySignature: IMap(),
  watches: EMPTY_WATCHES,
  byUse: emptySortedSet(evictionOrder),
  byRefresh: NO_REFRESHES,
  bySession: NO_SESSION_CLAUSES,
};

function insert(store: ClauseStore, c: Clause): ClauseStore {
  return {
    clauses: store.clauses.set(c.id, c),
    bySignature: store.bySignature.set(duplicateKey(c), c.id),
    watches: watchClause(store.watches, c),
    byUse: sortedAdd(store.byUse, c),
    byRefresh: sortedAdd(store.byRefresh, refreshKey(c)),
    bySession: withSessionClause(store.bySession, c),
  };
}

/**
 * `store` with the stored clause `old` replaced by `updated` (same id, literals and lifetime). A
 * use keeps `refreshedAt`, so only a refresh that moves it reorders the refresh index.
 */
function replaced(store: ClauseStore, old: Clause, updated: Clause): ClauseStore {
  return {
    clauses: store.clauses.set(updated.id, updated),
    bySignature: store.bySignature,
    watches: store.watches,
    byUse: sortedAdd(sortedRemove(store.byUse, old), updated),
    byRefresh:
      old.refreshedAt === updated.refreshedAt ? store.byRefresh : sortedAdd(sortedRemove(store.byRefresh, old), refreshKey(updated)),
    bySession: store.bySession,
  };
}

/** Removes a clause by id; an absent id leaves the store unchanged. */
export function removeClause(store: ClauseStore, id: string): ClauseStore {
  const c = store.clauses.get(id);
  if (c === undefined) return store;
  return {
    clauses: store.clauses.remove(id),
    bySignature: store.bySignature.remove(duplicateKey(c)),
    watches: unwatchClause(store.watches, c),
    byUse: sortedRemove(store.byUse, c),
    byRefresh: sortedRemove(store.byRefresh, c),
    bySession: withoutSessionClause(store.bySession, c),
  };
}

/** The least recently used clause: smallest lastUsed, ties by id byte-wise. O(log n). */
function leastRecentlyUsed(store: ClauseStore): Clause | undefined {
  return sortedFirst(store.byUse);
}

/**
 * Learns a clause. An equal literal set of the same lifetime refreshes the stored clause (use count, last use and
 * TTL); an id already used by different literals is CLAUSE_CONFLICT; a full store evicts the
 * least recently used clause.
 */
export function addClause(store: ClauseStore, input: ClauseInput, at: number, maxClauses: number): AddClauseResult {
  if (input === null || typeof input !== "object") throw invalidArgument("clause", "clause must not be nil");
  const learnedAt = input.learnedAt === undefined || input.learnedAt === 0 ? at : input.learnedAt;
  // Malformed literal lists and literals are kept as given for validation to name.
  const literals = Array.isArray(input.literals)
    ? Object.freeze(
        input.literals.map((l) => (l !== null && typeof l === "object" ? Object.freeze({ variable: l.variable, negated: l.negated }) : l)),
      )
    : (input.literals ?? []);
  const clause: Clause = Object.freeze({
    id: input.id,
    literals,
    source: input.source,
    failureType: input.failureType ?? "",
    scope: input.scope ?? "project",
    sessionId: input.sessionId ?? "",
    learnedAt,
    refreshedAt: Math.max(learnedAt, at),
    useCount: 0,
    lastUsed: at,
  });
  validateClause(clause);
  const dupId = store.bySignature.get(duplicateKey(clause));
  if (dupId !== undefined) {
    const old = store.clauses.get(dupId) as Clause;
    const refreshed: Clause = frozenWith(old, {
      useCount: old.useCount + 1,
      lastUsed: at,
      refreshedAt: Math.max(old.refreshedAt, at),
    });
    return {
      store: replaced(store, old, refreshed),
      clause: refreshed,
      outcome: "refreshed",
      evicted: undefined,
    };
  }
  if (store.clauses.has(clause.id)) {
    throw new StateError("CLAUSE_CONFLICT", `clause ${clause.id} already exists with different literals`, { field: "id" });
  }
  let next = store;
  let evicted: string | undefined;
  if (next.clauses.size >= maxClauses) {
    evicted = leastRecentlyUsed(next)?.id;
    if (evicted !== undefined) next = removeClause(next, evicted);
  }
  return { store: insert(next, clause), clause, outcome: "added", evicted };
}

/**
 * Evicts least recently used clauses until at most `max` remain (the rule a new clause follows);
 * returns the evicted ids in order. O(k log n) for k evictions, where a scan per eviction made a
 * large cut of the limit cost O(k·n).
 */
export function evictToCapacity(store: ClauseStore, max: number): { store: ClauseStore; evicted: string[] } {
  let next = store;
  const evicted: string[] = [];
  while (next.clauses.size > max) {
    const victim = leastRecentlyUsed(next);
    if (victim === undefined) break;
    next = removeClause(next, victim.id);
    evicted.push(victim.id);
  }
  return { store: next, evicted };
}

/** Marks a clause as used at `at`; returns the store and the clause as stored now. CLAUSE_NOT_FOUND when absent. */
export function touchClause(store: ClauseStore, id: string, at: number): { store: ClauseStore; clause: Clause } {
  const c = store.clauses.get(id);
  if (c === undefined) throw new StateError("CLAUSE_NOT_FOUND", `clause ${id} not found`, { field: "clauseId" });
  const clause: Clause = frozenWith(c, { useCount: c.useCount + 1, lastUsed: at });
  return { store: replaced(store, c, clause), clause };
}

/**
 * Removes clauses whose TTL (counted from their last refresh) has passed; returns removed ids
 * sorted byte-wise and removes them in that order. O(k log n) for k expired clauses.
 */
export function expireClauses(store: ClauseStore, clock: ClauseClock): { store: ClauseStore; removed: string[] } {
  const removed = expiredIds(store.byRefresh, clock).sort(compareUtf8);
  return { store: removed.reduce(removeClause, store), removed };
}

/** Removes the session-scoped clauses of `sessionId`; returns removed ids sorted. O(k log n) for the session's k clauses. */
export function endSessionClauses(store: ClauseStore, sessionId: string): { store: ClauseStore; removed: string[] } {
  const removed = sessionClauseIds(store.bySession, sessionId);
  return { store: removed.reduce(removeClause, store), removed };
}

/**
 * The expiry test a check at `clock` needs: undefined when no clause has expired (one read of
 * the refresh order), so the common check pays nothing per candidate.
 */
function expiredAt(store: ClauseStore, clock: ClauseClock): CheckScope["expired"] {
  if (!anyExpired(store.byRefresh, clock)) return undefined;
  return (id) => {
    const c = store.clauses.get(id);
    return c !== undefined && isExpired(c.refreshedAt, clock);
  };
}

/**
 * The clause that `assignment` violates at `clock.at`, choosing the earliest learned, then the
 * smallest id; only the parts a check reads, so a caller that needs the stored clause looks it
 * up by id. A clause whose TTL has passed no longer binds, collected or not; a decision in
 * `session` is not bound by the session-scoped clauses of other sessions.
 */
export function violatedClause(
  store: ClauseStore,
  assignment: Assignment,
  clock: ClauseClock,
  session?: string,
): WatchedClause | undefined {
  if (assignment === null || typeof assignment !== "object") throw invalidArgument("assignment", "assignment must not be nil");
  return earliestViolated(store.watches, store.clauses, assignment, { session, expired: expiredAt(store, clock) });
}

/** Finds the clause `assignment` violates at `clock.at` ({@link violatedClause} with every session's clauses). */
export function checkAssignment(store: ClauseStore, assignment: Assignment, clock: ClauseClock): ClauseCheckResult {
  const found = violatedClause(store, assignment, clock);
  const chosen = found === undefined ? undefined : store.clauses.get(found.id);
  if (chosen === undefined) return { conflict: false, violatedClause: undefined, reason: "" };
  return { conflict: true, violatedClause: chosen, reason: `assignment violates learned clause: ${clauseString(chosen)}` };
}

/** Every clause sorted by id byte-wise. */
export function allClauses(store: ClauseStore): Clause[] {
  return [...store.clauses.values()].sort((a, b) => compareUtf8(a.id, b.id));
}
