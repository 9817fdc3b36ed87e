import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Map as IMap, OrderedMap } from "immutable";
import { compareUtf8 } from "../bytes.js";
import {
  addClause,
  checkAssignment,
  EMPTY_CLAUSES,
  endSessionClauses,
  removeClause,
  violatedClause,
  type ClauseStore,
} from "./clause-store.js";
import { closedWorldAssignment, explicitAssignment, isViolated, type Assignment, type Clause, type Literal } from "./clause.js";
import { variableHash } from "./variable-hash.js";
import { EMPTY_WATCHES, earliestViolated, unwatchClause, watchAll, watchClause, type WatchIndex } from "./watch-index.js";
import { SMALL_LIST, watchCount, watchedIn, type WatchList } from "./watch-list.js";
import type { ClauseClock } from "./clause-lifetimes.js";

/** A clock at which no clause of these tests has expired: the checks here are about the index, not time. */
const UNEXPIRED: ClauseClock = { at: 0, ttlMs: 0 };

// Two pairs of variables whose hashes are equal, so index keys collide.
const COLLIDING = [
  ["tool:v439599", "tool:v622382"],
  ["tool:v439598", "tool:v622383"],
] as const;
const VARS = ["tool:a", "tool:b", "prev_tool:a", "outcome:success", "error:timeout", "x", ...COLLIDING.flat()];

/** The answer of a plain scan of every clause: the earliest learned violated one, then the smallest id. */
function scan(store: ClauseStore, assignment: Assignment): string | undefined {
  const violated = [...store.clauses.values()].filter((c) => isViolated(c, assignment));
  violated.sort((x, y) => x.learnedAt - y.learnedAt || compareUtf8(x.id, y.id));
  return violated[0]?.id;
}

type Op =
  | { op: "add"; id: number; literals: Literal[]; learnedAt: number; session: string }
  | { op: "remove"; id: number }
  | { op: "end"; session: string };

const litArb = fc.record({ variable: fc.constantFrom(...VARS), negated: fc.boolean() });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("add" as const),
      id: fc.nat(60),
      literals: fc.array(litArb, { minLength: 1, maxLength: 4 }),
      learnedAt: fc.nat(5),
      session: fc.constantFrom("", "s1", "s2"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("remove" as const), id: fc.nat(60) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("end" as const), session: fc.constantFrom("s1", "s2") }) },
);

function build(ops: readonly Op[]): ClauseStore {
  let store = EMPTY_CLAUSES;
  for (const o of ops) {
    if (o.op === "remove") store = removeClause(store, `c${o.id}`);
    else if (o.op === "end") store = endSessionClauses(store, o.session).store;
    else {
      const scope = o.session === "" ? ("project" as const) : ("session" as const);
      const input = {
        id: `c${o.id}`,
        literals: o.literals,
        source: "hard" as const,
        failureType: "x",
        scope,
        sessionId: o.session,
        learnedAt: o.learnedAt + 1,
      };
      if (store.clauses.has(input.id)) continue;
      store = addClause(store, input, 1, 40).store;
    }
  }
  return store;
}

describe("watched-literal index against a plain scan", () => {
  it("the colliding variables of these tests really collide", () => {
    for (const [a, b] of COLLIDING) assert.equal(variableHash(a), variableHash(b), `${a} and ${b} share a hash`);
  });

  it("reports the clause a scan of every clause reports, under closed-world and three-valued assignments", () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 80 }),
        fc.uniqueArray(fc.constantFrom(...VARS), { maxLength: 5 }),
        fc.dictionary(fc.constantFrom(...VARS), fc.boolean()),
        (ops, trueVars, values) => {
          const store = build(ops);
          for (const assignment of [closedWorldAssignment(trueVars), explicitAssignment(values)]) {
            const expected = scan(store, assignment);
            assert.equal(violatedClause(store, assignment, UNEXPIRED)?.id, expected, "index and scan agree");
            const check = checkAssignment(store, assignment, UNEXPIRED);
            assert.equal(check.violatedClause?.id, expected, "checkAssignment agrees");
            assert.equal(check.conflict, expected !== undefined, "conflict iff a clause is violated");
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("neither hides nor invents a violation when watched variables share a hash", () => {
    const [[a, b], [c, d]] = COLLIDING;
    let store = EMPTY_CLAUSES;
    const add = (id: string, literals: Literal[]): void => {
      store = addClause(store, { id, literals, source: "hard", failureType: "x" }, 1, 100).store;
    };
    add("ab", [
      { variable: a, negated: true },
      { variable: b, negated: true },
    ]);
    add("ac", [
      { variable: a, negated: true },
      { variable: c, negated: true },
    ]);
    add("d", [{ variable: d, negated: true }]);
    // Enough clauses that the index is consulted rather than a scan.
    for (let i = 0; i < 20; i++)
      add(`pad${i}`, [
        { variable: `pad:${i}`, negated: true },
        { variable: "pad", negated: true },
      ]);
    const verdict = (vars: string[]): string | undefined => violatedClause(store, closedWorldAssignment(vars), UNEXPIRED)?.id;
    assert.equal(verdict([a]), undefined, "one of a colliding pair does not violate the pair's clause");
    assert.equal(verdict([b, c]), undefined, "b and c hash like a and d, yet violate nothing");
    assert.equal(verdict([a, b]), "ab", "both of the colliding pair violate it");
    assert.equal(verdict([a, c]), "ac", "a pair of two colliding groups is found");
    assert.equal(verdict([c]), undefined, "c alone is not d");
    assert.equal(verdict([d, "x"]), "d", "d alone violates its clause");
    store = removeClause(store, "ab");
    assert.equal(verdict([a, b]), undefined, "removing one clause of a shared key leaves the others' answers");
    assert.equal(verdict([a, c]), "ac", "and keeps the rest");
  });
});

const ids = (list: WatchList): string[] => [...watchedIn(list)].map((w) => w.id);

/** A list is immutable: a frozen array up to SMALL_LIST clauses, a persistent map past it. */
function assertListForm(list: WatchList): void {
  if (watchCount(list) <= SMALL_LIST) assert.ok(Array.isArray(list) && Object.isFrozen(list), "a small list is a frozen array");
  else assert.ok(OrderedMap.isOrderedMap(list), "a large list is a persistent ordered map");
}

// Every key and clause id in iteration order, so equal layouts compare equal and nothing else does.
function layout(index: WatchIndex): unknown {
  return {
    byWatch: [...index.byWatch].map(([hash, node]) => [hash, ids(node.single), [...node.pairs].map(([other, list]) => [other, ids(list)])]),
    unwatched: [...index.unwatched.keys()],
  };
}

describe("watching clauses all at once", () => {
  it("builds the index that registering them one by one builds, shared and colliding slots included", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
        const store = build(ops);
        const clauses = [...store.clauses.values()];
        let oneByOne = EMPTY_WATCHES;
        for (const c of clauses) oneByOne = watchClause(oneByOne, c);
        const atOnce = watchAll(clauses);
        assert.deepEqual(layout(atOnce), layout(oneByOne), "same keys, lists and order");
        assert.ok(Object.isFrozen(atOnce), "the index is frozen");
        for (const node of atOnce.byWatch.values()) {
          assert.ok(Object.isFrozen(node), "nodes are frozen");
          assertListForm(node.single);
          for (const list of node.pairs.values()) assertListForm(list);
        }
        for (const c of clauses) {
          const assignment = closedWorldAssignment(c.literals.filter((l) => l.negated).map((l) => l.variable));
          assert.equal(
            violatedClause({ ...store, watches: atOnce }, assignment, UNEXPIRED)?.id,
            violatedClause({ ...store, watches: oneByOne }, assignment, UNEXPIRED)?.id,
            "both indexes answer alike",
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Slot -> ids in list order, slots sorted: what a layout says apart from the order of the map keys. */
function slotContents(index: WatchIndex): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const [hash, node] of index.byWatch) {
    if (watchCount(node.single) > 0) out.push([`${hash}`, ids(node.single)]);
    for (const [other, list] of node.pairs) out.push([`${hash}/${other}`, ids(list)]);
  }
  return out.sort(([a], [b]) => compareUtf8(a, b));
}

describe("registering and unregistering clauses live", () => {
  // Two variables: four slots (each alone, the pair, none), so lists grow past SMALL_LIST and shrink back.
  const FEW = ["tool:a", "tool:b"];
  const liveOp = fc.oneof(
    {
      weight: 2,
      arbitrary: fc.record({
        add: fc.constant(true as const),
        id: fc.nat(60),
        watched: fc.array(fc.constantFrom(...FEW), { minLength: 0, maxLength: 2 }),
        learnedAt: fc.nat(4),
      }),
    },
    { weight: 1, arbitrary: fc.record({ add: fc.constant(false as const), id: fc.nat(60) }) },
  );

  it("keeps each slot in registration order, as copying its array did, when a slot outgrows an array", () => {
    fc.assert(
      fc.property(fc.array(liveOp, { minLength: 20, maxLength: 300 }), fc.uniqueArray(fc.constantFrom(...FEW)), (ops, trueVars) => {
        let index = EMPTY_WATCHES;
        // The model: the registered clauses in registration order; a slot's list was always this order, filtered to the slot.
        let registered: Clause[] = [];
        for (const o of ops) {
          const id = `c${o.id}`;
          const present = registered.find((c) => c.id === id);
          if (!o.add) {
            if (present !== undefined) {
              index = unwatchClause(index, present);
              registered = registered.filter((c) => c !== present);
            }
            continue;
          }
          if (present !== undefined) continue;
          const literals = [...o.watched.map((variable) => ({ variable, negated: true })), { variable: `v${o.id}`, negated: false }];
          const c: Clause = Object.freeze({
            id,
            literals,
            source: "hard",
            failureType: "x",
            scope: "project",
            sessionId: "",
            learnedAt: o.learnedAt,
            refreshedAt: o.learnedAt,
            useCount: 0,
            lastUsed: o.learnedAt,
          });
          index = watchClause(index, c);
          registered = [...registered, c];
        }
        assert.deepEqual(slotContents(index), slotContents(watchAll(registered)), "each slot lists its clauses in registration order");
        assert.deepEqual([...index.unwatched.keys()].sort(compareUtf8), [...watchAll(registered).unwatched.keys()].sort(compareUtf8));
        for (const node of index.byWatch.values()) {
          assert.ok(watchCount(node.single) > 0 || node.pairs.size > 0, "no empty node is kept");
          assertListForm(node.single);
          for (const list of node.pairs.values()) {
            assert.ok(watchCount(list) > 0, "no empty pair list is kept");
            assertListForm(list);
          }
        }
        const byId = IMap(registered.map((c) => [c.id, c] as const));
        const assignment = closedWorldAssignment(trueVars);
        const expected = registered
          .filter((c) => isViolated(c, assignment))
          .sort((x, y) => x.learnedAt - y.learnedAt || compareUtf8(x.id, y.id))[0]?.id;
        assert.equal(earliestViolated(index, byId, assignment)?.id, expected, "a check over large slots answers as a scan does");
      }),
      { numRuns: 300 },
    );
  });
});
