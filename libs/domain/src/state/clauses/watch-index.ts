/**
 * Watched-literal index. Each clause watches up to two literals, negated ones first: a negated
 * literal is false only when its variable is true, so a clause watching ¬x and ¬y can be
 * violated only when x and y are both true. A check looks up the true variables and the pairs
 * of them, never the clauses watching just one of a pair: with the few true facts of a
 * decision, the cost no longer grows with the number of clauses. Clauses without a negated
 * literal cannot be excluded this way and are always checked.
 *
 * The persistent maps are keyed by 32-bit hashes of the variables, not by the variables: the
 * maps hash a number in a few operations but walk a string on every lookup, which dominated a
 * check. A collision only adds candidates, and every candidate is checked against its literals,
 * so no answer depends on the hash. Two levels (the smaller hash, then the larger) let a true
 * variable that no clause watches cost one lookup.
 */

import { Map as IMap } from "immutable";
import { compareUtf8 } from "../bytes.js";
import { isViolated, type Assignment, type Clause } from "./clause.js";
import { variableHash } from "./variable-hash.js";
import {
  appendWatch,
  NO_CLAUSES,
  watchCount,
  watchedIn,
  watchListOf,
  withoutWatch,
  type WatchedClause,
  type WatchList,
} from "./watch-list.js";

/** The clauses whose smaller watched hash is one value. */
export interface WatchNode {
  /** Clauses watching a single variable of this hash. */
  readonly single: WatchList;
  /** Hash of the other watched variable (not smaller) -> clauses watching both. */
  readonly pairs: IMap<number, WatchList>;
}

/** Persistent watch index. */
export interface WatchIndex {
  /** Smaller hash of the watched variables -> the clauses watching them. */
  readonly byWatch: IMap<number, WatchNode>;
  /** Clauses with no negated literal, by id; every check visits them. */
  readonly unwatched: IMap<string, WatchedClause>;
}

/** The empty index. */
export const EMPTY_WATCHES: WatchIndex = Object.freeze({ byWatch: IMap<number, WatchNode>(), unwatched: IMap<string, WatchedClause>() });

const EMPTY_NODE: WatchNode = Object.freeze({ single: NO_CLAUSES, pairs: IMap<number, WatchList>() });

/** The variables a clause watches: those of its first two distinct negated literals. */
function watchedVariables(c: Pick<Clause, "literals">): string[] {
  const out: string[] = [];
  for (const l of c.literals) {
    if (l.negated && !out.includes(l.variable)) out.push(l.variable);
    if (out.length === 2) break;
  }
  return out;
}

/** Where a clause sits: the node's hash, and the pair's other hash (undefined when it watches one variable). */
function slot(c: Pick<Clause, "literals">): { node: number; pair: number | undefined } | undefined {
  const [a, b] = watchedVariables(c);
  if (a === undefined) return undefined;
  const ha = variableHash(a);
  if (b === undefined) return { node: ha, pair: undefined };
  const hb = variableHash(b);
  return ha <= hb ? { node: ha, pair: hb } : { node: hb, pair: ha };
}

function withNode(index: WatchIndex, hash: number, node: WatchNode): WatchIndex {
  const empty = watchCount(node.single) === 0 && node.pairs.size === 0;
  return Object.freeze({ ...index, byWatch: empty ? index.byWatch.remove(hash) : index.byWatch.set(hash, node) });
}

function watchedEntry(c: Clause): WatchedClause {
  return Object.freeze({ id: c.id, learnedAt: c.learnedAt, literals: c.literals, scope: c.scope, sessionId: c.sessionId });
}

/** Registers a clause, last in its slot. O(log n) in the clauses of the slot. */
export function watchClause(index: WatchIndex, c: Clause): WatchIndex {
  const entry = watchedEntry(c);
  const at = slot(c);
  if (at === undefined) return Object.freeze({ ...index, unwatched: index.unwatched.set(c.id, entry) });
  const node = index.byWatch.get(at.node) ?? EMPTY_NODE;
  if (at.pair === undefined) return withNode(index, at.node, Object.freeze({ ...node, single: appendWatch(node.single, entry) }));
  const list = appendWatch(node.pairs.get(at.pair) ?? NO_CLAUSES, entry);
  return withNode(index, at.node, Object.freeze({ ...node, pairs: node.pairs.set(at.pair, list) }));
}

/**
 * The index watching `clauses` (distinct ids), equal to registering them one by one in order,
 * without the persistent steps in between: each slot's list is filled in place and made once.
 */
export function watchAll(clauses: Iterable<Clause>): WatchIndex {
  const unwatched = new Map<string, WatchedClause>();
  const nodes = new Map<number, { single: WatchedClause[]; pairs: Map<number, WatchedClause[]> }>();
  for (const c of clauses) {
    const at = slot(c);
    if (at === undefined) {
      unwatched.set(c.id, watchedEntry(c));
      continue;
    }
    let node = nodes.get(at.node);
    if (node === undefined) {
      node = { single: [], pairs: new Map() };
      nodes.set(at.node, node);
    }
    if (at.pair === undefined) node.single.push(watchedEntry(c));
    else {
      const list = node.pairs.get(at.pair);
      if (list === undefined) node.pairs.set(at.pair, [watchedEntry(c)]);
      else list.push(watchedEntry(c));
    }
  }
  // Maps filled in first-seen order, the order registering one by one inserts their keys.
  const byWatch = IMap<number, WatchNode>().withMutations((m) => {
    for (const [hash, node] of nodes) {
      const pairs = IMap<number, WatchList>().withMutations((p) => {
        for (const [other, list] of node.pairs) p.set(other, watchListOf(list));
      });
      m.set(hash, Object.freeze({ single: watchListOf(node.single), pairs }));
    }
  });
  return Object.freeze({ byWatch, unwatched: IMap(unwatched) });
}

/** Unregisters a clause, keeping the order of the others. O(log n) in the clauses of its slot. */
export function unwatchClause(index: WatchIndex, c: Clause): WatchIndex {
  const at = slot(c);
  if (at === undefined) return Object.freeze({ ...index, unwatched: index.unwatched.remove(c.id) });
  const node = index.byWatch.get(at.node);
  if (node === undefined) return index;
  if (at.pair === undefined) return withNode(index, at.node, Object.freeze({ ...node, single: withoutWatch(node.single, c.id) }));
  const list = withoutWatch(node.pairs.get(at.pair) ?? NO_CLAUSES, c.id);
  return withNode(
    index,
    at.node,
    Object.freeze({ ...node, pairs: watchCount(list) === 0 ? node.pairs.remove(at.pair) : node.pairs.set(at.pair, list) }),
  );
}

/** True when `c` comes before `best` in the choice order: earlier learned, then smaller id byte-wise. */
function before(c: WatchedClause, best: WatchedClause | undefined): boolean {
  return best === undefined || c.learnedAt < best.learnedAt || (c.learnedAt === best.learnedAt && compareUtf8(c.id, best.id) < 0);
}

/** Which clauses a check leaves out. */
export interface CheckScope {
  /** The deciding session: another session's session-scoped clauses are left out; absent, every clause applies. */
  readonly session?: string | undefined;
  /** True for a clause that no longer acts (its TTL passed); absent when none has. */
  readonly expired?: ((id: string) => boolean) | undefined;
}

/** True when `c` applies in `session`: a session-scoped clause only in its own session; any clause when no session is named. */
function appliesIn(c: WatchedClause, session: string | undefined): boolean {
  return session === undefined || c.scope !== "session" || c.sessionId === session;
}

/** The earliest of `best` and the clauses of `list` that apply in `scope` and are violated under `assignment`. */
function earliestIn(
  list: Iterable<WatchedClause>,
  assignment: Assignment,
  best: WatchedClause | undefined,
  scope: CheckScope,
): WatchedClause | undefined {
  let chosen = best;
  const { session, expired } = scope;
  // Expiry last: it looks the clause up, so only a violated candidate that would win pays for it.
  for (const c of list) {
    if (before(c, chosen) && appliesIn(c, session) && isViolated(c, assignment) && (expired === undefined || !expired(c.id))) chosen = c;
  }
  return chosen;
}

/**
 * The violated clause to report under `assignment`: the earliest learned, then the smallest id.
 * Clauses outside `scope` are left out. With t true variables a check costs t lookups plus one per pair of true variables whose
 * smaller one some clause watches; when the t(t+1)/2 possible lookups exceed the number of
 * clauses, it scans them all instead, so it is never worse than a scan.
 */
export function earliestViolated(
  index: WatchIndex,
  clauses: IMap<string, Clause>,
  assignment: Assignment,
  scope: CheckScope = {},
): WatchedClause | undefined {
  const listed = assignment.trueVariables();
  const vars = Array.isArray(listed) ? (listed as readonly string[]) : [...listed];
  const t = vars.length;
  if ((t * (t + 1)) / 2 > clauses.size) return earliestIn(clauses.values(), assignment, undefined, scope);
  let best = index.unwatched.size === 0 ? undefined : earliestIn(index.unwatched.values(), assignment, undefined, scope);
  const hashes: number[] = [];
  for (let i = 0; i < t; i++) hashes.push(variableHash(vars[i] as string));
  for (let i = 0; i < t; i++) {
    const h = hashes[i] as number;
    const node = index.byWatch.get(h);
    if (node === undefined) continue;
    if (watchCount(node.single) > 0) best = earliestIn(watchedIn(node.single), assignment, best, scope);
    if (node.pairs.size === 0) continue;
    for (let j = 0; j < t; j++) {
      const g = hashes[j] as number;
      // Each unordered pair once, as (smaller hash, larger hash), the order it was stored in.
      if (g < h || (g === h && j <= i)) continue;
      const list = node.pairs.get(g);
      if (list !== undefined) best = earliestIn(watchedIn(list), assignment, best, scope);
    }
  }
  return best;
}
