import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compareUtf8 } from "../bytes.js";
import { sortedValues } from "../sorted-set.js";
import type { Clause } from "./clause.js";
import {
  addClause,
  EMPTY_CLAUSES,
  endSessionClauses,
  evictToCapacity,
  expireClauses,
  removeClause,
  touchClause,
  usageOrderOf,
  type ClauseStore,
} from "./clause-store.js";

/** The choice as a scan of every clause made it: smallest lastUsed, ties by id byte-wise. */
function scanLeastRecentlyUsed(store: ClauseStore): string | undefined {
  let best: Clause | undefined;
  for (const c of store.clauses.values()) {
    if (best === undefined || c.lastUsed < best.lastUsed || (c.lastUsed === best.lastUsed && compareUtf8(c.id, best.id) < 0)) best = c;
  }
  return best?.id;
}

/** The ids a scan per eviction evicted, in order, to leave at most `max`. */
function scanEvictions(store: ClauseStore, max: number): string[] {
  const out: string[] = [];
  let s = store;
  while (s.clauses.size > max) {
    const id = scanLeastRecentlyUsed(s) as string;
    out.push(id);
    s = removeClause(s, id);
  }
  return out;
}

type Op =
  | { op: "add"; id: number; variable: number; at: number; session: string; cap: number }
  | { op: "touch"; id: number; at: number }
  | { op: "remove"; id: number }
  | { op: "expire"; at: number }
  | { op: "end"; session: string }
  | { op: "fit"; max: number }
  | { op: "reimport" };

// Few times, so many clauses tie on lastUsed; times go backwards as an injected clock may.
const at = fc.nat(6);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant("add" as const),
      id: fc.nat(40),
      variable: fc.nat(30),
      at,
      session: fc.constantFrom("", "s1"),
      cap: fc.integer({ min: 1, max: 25 }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("touch" as const), id: fc.nat(40), at }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("remove" as const), id: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("expire" as const), at: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("end" as const), session: fc.constant("s1") }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("fit" as const), max: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("reimport" as const) }) },
);

function run(store: ClauseStore, o: Op): ClauseStore {
  switch (o.op) {
    case "add": {
      const input = {
        id: `c${o.id}`,
        literals: [{ variable: `v${o.variable}`, negated: true }],
        source: "hard" as const,
        failureType: "x",
        scope: o.session === "" ? ("project" as const) : ("session" as const),
        sessionId: o.session,
      };
      let r: ReturnType<typeof addClause>;
      try {
        r = addClause(store, input, o.at, o.cap);
      } catch {
        return store; // an id reused for other literals
      }
      const expected = r.outcome === "added" && store.clauses.size >= o.cap ? scanLeastRecentlyUsed(store) : undefined;
      assert.equal(r.evicted, expected, "a full store evicts the clause a scan picks");
      return r.store;
    }
    case "touch":
      return store.clauses.has(`c${o.id}`) ? touchClause(store, `c${o.id}`, o.at).store : store;
    case "remove":
      return removeClause(store, `c${o.id}`);
    case "expire":
      return expireClauses(store, o.at, 3).store;
    case "end":
      return endSessionClauses(store, o.session).store;
    case "fit": {
      const r = evictToCapacity(store, o.max);
      assert.deepEqual(r.evicted, scanEvictions(store, o.max), "a cut evicts the clauses a scan per eviction picks, in its order");
      return r.store;
    }
    case "reimport":
      return { ...store, byUse: usageOrderOf([...store.clauses.values()]) };
  }
}

describe("eviction order against a scan of every clause", () => {
  it("evicts the clauses, in the order, a scan per eviction chose, through adds at capacity, uses, expiry and cuts", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 120 }), (ops) => {
        let store = EMPTY_CLAUSES;
        for (const o of ops) {
          store = run(store, o);
          const order = [...store.clauses.values()]
            .sort((a, b) => a.lastUsed - b.lastUsed || compareUtf8(a.id, b.id))
            .map((c) => [c.id, c.lastUsed]);
          const indexed = [...sortedValues(store.byUse)].map((c) => [c.id, c.lastUsed]);
          assert.deepEqual(indexed, order, `after ${o.op}: the order holds every stored clause as stored, least recently used first`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
