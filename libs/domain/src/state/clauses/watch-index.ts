/**
 * Watched-literal index. Each clause watches up to two literals, negated ones first: a negated
 * literal is false only when its variable is true, so a clause watching ¬x and ¬y can be
 * violated only when x and y are both true. Clauses are indexed by the pair of variables they
 * watch (or the single one), so a check looks up the pairs of true variables, never the clauses
 * watching just one of them: with the few true facts of a decision, the cost no longer grows with
 * the number of clauses. Clauses without a negated literal cannot be excluded this way and are
 * always checked.
 */

import { Map as IMap, Set as ISet } from "immutable";
import { compareUtf8 } from "../bytes.js";
import type { Assignment, Clause } from "./clause.js";

/** Persistent watch index. */
export interface WatchIndex {
  /** Key of the watched variables -> ids of the clauses watching exactly those. */
  readonly byWatch: IMap<string, ISet<string>>;
  /** Clauses with no negated literal; they must always be checked. */
  readonly unwatched: ISet<string>;
}

/** The empty index. */
export const EMPTY_WATCHES: WatchIndex = { byWatch: IMap(), unwatched: ISet() };

/** The variables a clause watches: those of its first two distinct negated literals, sorted byte-wise. */
export function watchedVariables(c: Pick<Clause, "literals">): string[] {
  const out: string[] = [];
  for (const l of c.literals) {
    if (l.negated && !out.includes(l.variable)) out.push(l.variable);
    if (out.length === 2) break;
  }
  return out.sort(compareUtf8);
}

/**
 * Key of one or two watched variables (given sorted): the first one's length, `:`, then both.
 * The length makes it unambiguous (a pair always has more characters after the colon than the
 * length announces, a single variable exactly that many), without JSON's cost.
 */
function watchKey(variables: readonly string[]): string {
  const [a, b] = variables as [string, string | undefined];
  return b === undefined ? `${a.length}:${a}` : `${a.length}:${a}${b}`;
}

/** Registers a clause. */
export function watchClause(index: WatchIndex, c: Clause): WatchIndex {
  const watched = watchedVariables(c);
  if (watched.length === 0) return { ...index, unwatched: index.unwatched.add(c.id) };
  const key = watchKey(watched);
  return { ...index, byWatch: index.byWatch.set(key, (index.byWatch.get(key) ?? ISet<string>()).add(c.id)) };
}

/** Unregisters a clause. */
export function unwatchClause(index: WatchIndex, c: Clause): WatchIndex {
  const watched = watchedVariables(c);
  if (watched.length === 0) return { ...index, unwatched: index.unwatched.remove(c.id) };
  const key = watchKey(watched);
  const next = (index.byWatch.get(key) ?? ISet<string>()).remove(c.id);
  return { ...index, byWatch: next.size === 0 ? index.byWatch.remove(key) : index.byWatch.set(key, next) };
}

/**
 * Ids of the clauses whose watched literals are all false under `assignment`: a superset of the
 * violated ones. With t true variables that costs t(t+1)/2 lookups; when that would exceed the
 * number of clauses, every clause is a candidate instead, so the cost is never worse than a scan.
 */
export function candidateClauses(index: WatchIndex, clauses: IMap<string, Clause>, assignment: Assignment): Iterable<string> {
  const trueVars = [...new Set(assignment.trueVariables())].sort(compareUtf8);
  if ((trueVars.length * (trueVars.length + 1)) / 2 > clauses.size) return clauses.keys();
  const out: string[] = [...index.unwatched];
  const add = (key: string): void => {
    const ids = index.byWatch.get(key);
    if (ids !== undefined) for (const id of ids) out.push(id);
  };
  trueVars.forEach((a, i) => {
    const prefix = `${a.length}:${a}`;
    add(prefix);
    for (let j = i + 1; j < trueVars.length; j++) add(prefix + (trueVars[j] as string));
  });
  return out;
}
