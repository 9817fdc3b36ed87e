/**
 * Watched-literal index. Each clause watches up to two literals, negated ones first: a
 * negated literal is false only when its variable is true, so a clause watching ¬x can be
 * violated only if x is true. A check therefore visits the clauses watching the true
 * variables plus the (rare) clauses without negated literals, never the whole store.
 */

import { Map as IMap, Set as ISet } from "immutable";
import { literalValue, type Assignment, type Clause, type Literal } from "./clause.js";

/** Persistent watch index. */
export interface WatchIndex {
  /** variable -> ids of clauses watching its negation. */
  readonly byVariable: IMap<string, ISet<string>>;
  /** Clauses with no negated literal; they must always be checked. */
  readonly unwatched: ISet<string>;
}

/** The empty index. */
export const EMPTY_WATCHES: WatchIndex = { byVariable: IMap(), unwatched: ISet() };

/** The literals a clause watches: its first two distinct negated literals. */
export function watchedLiterals(c: Pick<Clause, "literals">): Literal[] {
  const out: Literal[] = [];
  for (const l of c.literals) {
    if (l.negated && !out.some((w) => w.variable === l.variable)) out.push(l);
    if (out.length === 2) break;
  }
  return out;
}

/** Registers a clause. */
export function watchClause(index: WatchIndex, c: Clause): WatchIndex {
  const watched = watchedLiterals(c);
  if (watched.length === 0) return { ...index, unwatched: index.unwatched.add(c.id) };
  let byVariable = index.byVariable;
  for (const l of watched) byVariable = byVariable.set(l.variable, (byVariable.get(l.variable) ?? ISet<string>()).add(c.id));
  return { ...index, byVariable };
}

/** Unregisters a clause. */
export function unwatchClause(index: WatchIndex, c: Clause): WatchIndex {
  const watched = watchedLiterals(c);
  if (watched.length === 0) return { ...index, unwatched: index.unwatched.remove(c.id) };
  let byVariable = index.byVariable;
  for (const l of watched) {
    const next = (byVariable.get(l.variable) ?? ISet<string>()).remove(c.id);
    byVariable = next.size === 0 ? byVariable.remove(l.variable) : byVariable.set(l.variable, next);
  }
  return { ...index, byVariable };
}

/** Ids of clauses whose watched literals are all false under `assignment`; a superset of the violated ones. */
export function candidateClauses(index: WatchIndex, clauses: IMap<string, Clause>, assignment: Assignment): Set<string> {
  const out = new Set<string>(index.unwatched);
  for (const variable of assignment.trueVariables()) {
    for (const id of index.byVariable.get(variable) ?? []) {
      if (out.has(id)) continue;
      const c = clauses.get(id);
      if (c !== undefined && watchedLiterals(c).every((l) => literalValue(l, assignment) === false)) out.add(id);
    }
  }
  return out;
}
