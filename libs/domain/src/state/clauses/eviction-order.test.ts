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
  orderIndexesOf,
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

/** Ids of the clauses `pick` selects, byte-wise: what a scan of every clause removed. */
function scanIds(store: ClauseStore, pick: (c: Clause) => boolean): string[] {
  return [...store.clauses.values()]
    .filter(pick)
    .map((c) => c.id)
    .sort(compareUtf8);
}

/** Asserts that the three orders hold exactly the stored clauses, as stored. */
function assertOrders(store: ClauseStore, ctx: string): void {
  const all = [...store.clauses.values()];
  const order = [...all].sort((a, b) => a.lastUsed - b.lastUsed || compareUtf8(a.id, b.id)).map((c) => [c.id, c.lastUsed]);
  const indexed = [...sortedValues(store.byUse)].map((c) => [c.id, c.lastUsed]);
  assert.deepEqual(indexed, order, `${ctx}: the eviction order holds every stored clause as stored, least recently used first`);
  const refreshes = [...all].sort((a, b) => a.refreshedAt - b.refreshedAt || compareUtf8(a.id, b.id)).map((c) => [c.id, c.refreshedAt]);
  const byRefresh = [...sortedValues(store.byRefresh)].map((k) => [k.id, k.refreshedAt]);
  assert.deepEqual(byRefresh, refreshes, `${ctx}: the refresh order holds every stored clause, oldest refresh first`);
  const sessions = new Map<string, string[]>();
  for (const c of all) if (c.scope === "session") sessions.set(c.sessionId, [...(sessions.get(c.sessionId) ?? []), c.id].sort(compareUtf8));
  const bySession = new Map([...store.bySession].map(([s, ids]) => [s, [...sortedValues(ids)]]));
  assert.deepEqual(bySession, sessions, `${ctx}: the session index lists each session's clauses and no empty session`);
}

type Op =
  | { op: "add"; id: number; variable: number; at: number; learned: number; session: string; cap: number }
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
      // 0 is "now"; a later time moves the refresh past the clock.
      learned: fc.nat(8),
      session: fc.constantFrom("", "s1", "s2"),
      cap: fc.integer({ min: 1, max: 25 }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("touch" as const), id: fc.nat(40), at }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("remove" as const), id: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("expire" as const), at: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("end" as const), session: fc.constantFrom("s1", "s2", "s3") }) },
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
        learnedAt: o.learned,
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
    case "expire": {
      const r = expireClauses(store, { at: o.at, ttlMs: 3 });
      assert.deepEqual(
        r.removed,
        scanIds(store, (c) => o.at - c.refreshedAt > 3),
        "expiry removes the clauses a scan finds past their TTL",
      );
      return r.store;
    }
    case "end": {
      const r = endSessionClauses(store, o.session);
      assert.deepEqual(
        r.removed,
        scanIds(store, (c) => c.scope === "session" && c.sessionId === o.session),
        "a session end removes its session clauses",
      );
      return r.store;
    }
    case "fit": {
      const r = evictToCapacity(store, o.max);
      assert.deepEqual(r.evicted, scanEvictions(store, o.max), "a cut evicts the clauses a scan per eviction picks, in its order");
      return r.store;
    }
    case "reimport":
      return { ...store, ...orderIndexesOf([...store.clauses.values()]) };
  }
}

describe("clause orders against a scan of every clause", () => {
  it("evicts, expires and ends sessions with the clauses, in the order, a scan chose, through adds at capacity, refreshes, uses and cuts", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 120 }), (ops) => {
        let store = EMPTY_CLAUSES;
        const versions: ClauseStore[] = [];
        for (const o of ops) {
          store = run(store, o);
          assertOrders(store, `after ${o.op}`);
          versions.push(store);
        }
        // Every earlier version is a snapshot some reader may still hold: later changes must not reach its orders.
        versions.forEach((v, i) => assertOrders(v, `version ${i} at the end`));
      }),
      { numRuns: 300 },
    );
  });
});
