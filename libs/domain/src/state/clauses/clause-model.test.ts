import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compareUtf8 } from "../bytes.js";
import { StateEngine } from "../engine/engine.js";
import type { Mutation } from "../engine/engine-types.js";
import { isStateError } from "../errors.js";
import type { StateEvent } from "../events/event.js";
import { makeStep } from "../steps/step-record.js";
import { endSessionClauses, expireClauses } from "./clause-store.js";

// A naive model of the clause store and decision checks: arrays, linear scans, no index.
interface ModelClause {
  id: string;
  literals: { variable: string; negated: boolean }[];
  sig: string;
  scope: "session" | "project";
  session: string;
  learnedAt: number;
  refreshedAt: number;
  lastUsed: number;
  useCount: number;
}
interface Model {
  clauses: ModelClause[];
  steps: Map<string, { tool: string; outcome: string; error: string }[]>;
}

type Op =
  | { op: "add"; id: string; vars: string[]; negs: boolean[]; session: string }
  | { op: "step"; session: string; tool: string; fail: boolean }
  | { op: "decide"; session: string; tool: string }
  | { op: "gc"; jump: number }
  | { op: "gc_at_edge"; pick: number; off: number }
  | { op: "end"; session: string }
  | { op: "relearn"; pick: number }
  | { op: "rewind"; by: number }
  | { op: "snapshot" }
  | { op: "replay" }
  | { op: "import" };

const TTL = 100;
const CAP = 3;
const CONFIG = { clauseTtlMs: TTL, maxClauses: CAP };
const VARS = ["tool:a", "tool:b", "prev_tool:a", "outcome:success", "error:timeout"];
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("add" as const),
    id: fc.constantFrom("k1", "k2", "k3", "k4", "k5"),
    vars: fc.array(fc.constantFrom(...VARS), { minLength: 1, maxLength: 3 }),
    negs: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    session: fc.constantFrom("", "s1", "s2"),
  }),
  fc.record({
    op: fc.constant("step" as const),
    session: fc.constantFrom("s1", "s2"),
    tool: fc.constantFrom("a", "b"),
    fail: fc.boolean(),
  }),
  fc.record({ op: fc.constant("decide" as const), session: fc.constantFrom("s1", "s2"), tool: fc.constantFrom("a", "b") }),
  fc.record({ op: fc.constant("gc" as const), jump: fc.nat(150) }),
  // Collects exactly when a stored clause's TTL runs out (off 1) or one tick before (off 0).
  fc.record({ op: fc.constant("gc_at_edge" as const), pick: fc.nat(5), off: fc.constantFrom(0, 1) }),
  fc.record({ op: fc.constant("end" as const), session: fc.constantFrom("s1", "s2") }),
  // An injected clock may go backwards, so refreshes and uses do not arrive in time order.
  // Learning a stored clause again, so refreshes are common enough to reorder expiry.
  fc.record({ op: fc.constant("relearn" as const), pick: fc.nat(5) }),
  fc.record({ op: fc.constant("rewind" as const), by: fc.constantFrom(15, 45, 130) }),
  fc.record({ op: fc.constant("snapshot" as const) }),
  fc.record({ op: fc.constant("replay" as const) }),
  fc.record({ op: fc.constant("import" as const) }),
);

const sig = (ls: { variable: string; negated: boolean }[]): string =>
  [...new Set(ls.map((l) => `${l.negated ? "-" : "+"}${l.variable}`))].sort().join("|");

function modelDecide(m: Model, session: string, tool: string, now: number): ModelClause | undefined {
  const steps = m.steps.get(session) ?? [];
  const facts = new Set([`tool:${tool}`]);
  const last = steps[steps.length - 1];
  if (last) {
    facts.add(`prev_tool:${last.tool}`).add(`outcome:${last.outcome}`);
    if (last.error) facts.add(`error:${last.error}`);
  }
  const before = steps[steps.length - 2];
  if (before) facts.add(`prev_prev_tool:${before.tool}`);
  const violated = m.clauses.filter(
    (c) =>
      now - c.refreshedAt <= TTL &&
      (c.scope === "project" || c.session === session) &&
      c.literals.every((l) => facts.has(l.variable) === l.negated),
  );
  violated.sort((x, y) => x.learnedAt - y.learnedAt || compareUtf8(x.id, y.id));
  return violated[0];
}

/** The engine under test and the events it emitted, for a replay. */
interface Live {
  e: StateEngine;
  readonly events: StateEvent[];
  /** The clock every engine of the run reads. */
  readonly clock: () => number;
}

/** The mutation's result; its event is kept for a later replay. */
function kept<R>(live: Live, mutation: Mutation<R>): R {
  if (mutation.event !== undefined) live.events.push(JSON.parse(JSON.stringify(mutation.event)) as StateEvent);
  return mutation.result;
}

/** Applies one op to model and engine and asserts that they agree on its answer. */
function step(m: Model, live: Live, o: Op, now: number): void {
  const e = live.e;
  switch (o.op) {
    case "relearn": {
      const c = m.clauses[o.pick % Math.max(1, m.clauses.length)];
      if (c === undefined) return;
      const vars = c.literals.map((l) => l.variable);
      step(m, live, { op: "add", id: `${c.id}'`, vars, negs: c.literals.map((l) => l.negated), session: c.session }, now);
      return;
    }
    case "add": {
      const literals = o.vars.map((variable, i) => ({ variable, negated: o.negs[i] ?? true }));
      const s = sig(literals);
      // Adding collects the clauses expired by now first, so none is refreshed or evicted.
      m.clauses = m.clauses.filter((c) => now - c.refreshedAt <= TTL);
      const input = {
        id: o.id,
        literals,
        source: "hard" as const,
        failureType: "x",
        scope: o.session === "" ? ("project" as const) : ("session" as const),
        sessionId: o.session,
      };
      const dup = m.clauses.find((c) => c.sig === s && c.scope === input.scope && c.session === o.session);
      if (dup) {
        dup.useCount++;
        dup.lastUsed = now;
        dup.refreshedAt = Math.max(dup.refreshedAt, now); // a refresh never moves the TTL back
        assert.equal(kept(live, e.addClause(input)).outcome, "refreshed", "duplicate literal set refreshes");
        return;
      }
      if (m.clauses.some((c) => c.id === o.id)) {
        assert.throws(
          () => kept(live, e.addClause(input)),
          (err: unknown) => isStateError(err, "CLAUSE_CONFLICT"),
          "id reuse is a conflict",
        );
        return;
      }
      let evicted: string | undefined;
      if (m.clauses.length >= CAP) {
        const lru = [...m.clauses].sort((x, y) => x.lastUsed - y.lastUsed || compareUtf8(x.id, y.id))[0] as ModelClause;
        evicted = lru.id;
        m.clauses = m.clauses.filter((c) => c !== lru);
      }
      m.clauses.push({
        id: o.id,
        literals,
        sig: s,
        scope: input.scope,
        session: o.session,
        learnedAt: now,
        refreshedAt: now,
        lastUsed: now,
        useCount: 0,
      });
      assert.equal(kept(live, e.addClause(input)).evicted, evicted, "same clause evicted");
      return;
    }
    case "step": {
      const list = m.steps.get(o.session) ?? [];
      list.push({ tool: o.tool, outcome: o.fail ? "failure" : "success", error: o.fail ? "timeout" : "" });
      m.steps.set(o.session, list);
      kept(
        live,
        e.recordStep(
          makeStep({
            sessionId: o.session,
            actor: "main_agent",
            decision: "execute_tool",
            tool: o.tool,
            outcome: o.fail ? "failure" : "success",
            errorCategory: o.fail ? "timeout" : "",
          }),
        ),
      );
      return;
    }
    case "decide": {
      const blocker = modelDecide(m, o.session, o.tool, now);
      if (blocker) {
        blocker.useCount++;
        blocker.lastUsed = now;
      }
      const v = kept(live, e.checkDecisionAllowed(o.session, o.tool));
      assert.equal(v.allowed, blocker === undefined, `decision on ${o.tool} in ${o.session}`);
      assert.equal(v.clause?.id, blocker?.id, "same blocking clause");
      return;
    }
    case "gc_at_edge":
    case "gc": {
      const removed = m.clauses
        .filter((c) => now - c.refreshedAt > TTL)
        .map((c) => c.id)
        .sort(compareUtf8);
      m.clauses = m.clauses.filter((c) => now - c.refreshedAt <= TTL);
      assert.deepEqual(kept(live, e.garbageCollectClauses()), removed, "same clauses expire");
      return;
    }
    case "end": {
      m.steps.delete(o.session);
      const removed = m.clauses
        .filter((c) => c.scope === "session" && c.session === o.session)
        .map((c) => c.id)
        .sort(compareUtf8);
      m.clauses = m.clauses.filter((c) => !(c.scope === "session" && c.session === o.session));
      assert.deepEqual(kept(live, e.endSession(o.session)), removed, "same session clauses end");
      return;
    }
    case "replay":
      // The rebuilt indexes must serve every later eviction, expiry and session end.
      live.e = StateEngine.fromEvents(live.events, { now: live.clock, config: CONFIG });
      return;
    case "import":
      live.e = StateEngine.fromDocument(JSON.parse(JSON.stringify(e.exportDocument())), { now: live.clock, config: CONFIG });
      return;
    case "rewind":
    case "snapshot":
      return;
  }
}

/** The clock at `o`: ten later, a jump for a collection, back for a rewind, or a stored clause's TTL edge. */
function nextTime(o: Op, now: number, m: Model): number {
  if (o.op === "rewind") return Math.max(0, now - o.by);
  if (o.op === "gc") return now + 10 + o.jump;
  if (o.op !== "gc_at_edge") return now + 10;
  const edge = m.clauses[o.pick % Math.max(1, m.clauses.length)];
  return edge === undefined ? now + 10 : edge.refreshedAt + TTL + o.off;
}

/** The stored clauses as the checks compare them: id order, with use and refresh. */
const image = (clauses: readonly { id: string; useCount: number; lastUsed: number; refreshedAt: number }[]): unknown[] =>
  [...clauses].sort((x, y) => compareUtf8(x.id, y.id)).map((c) => [c.id, c.useCount, c.lastUsed, c.refreshedAt]);

describe("clause store against a naive model", () => {
  it("agrees on learning, refreshing, eviction, expiry, session end and decisions, across snapshots, replays and imports", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        let now = 0;
        const clock = (): number => now;
        const live: Live = { e: new StateEngine({ now: clock, config: CONFIG }), events: [], clock };
        const m: Model = { clauses: [], steps: new Map() };
        const held: { snap: ReturnType<StateEngine["snapshot"]>; clauses: unknown[] }[] = [];
        ops.forEach((o) => {
          now = nextTime(o, now, m);
          step(m, live, o, now);
          const stored = image(live.e.snapshot().constraints.allClauses());
          assert.deepEqual(stored, image(m.clauses), `clauses after ${o.op}`);
          if (o.op === "snapshot") held.push({ snap: live.e.snapshot(), clauses: stored });
        });
        for (const h of held) {
          const clauses = h.snap.constraints.allClauses();
          assert.deepEqual(image(clauses), h.clauses, "a held snapshot keeps its clauses");
          // Its own version of the indexes still answers for it.
          const expired = clauses.filter((c) => now - c.refreshedAt > TTL).map((c) => c.id);
          assert.deepEqual(
            expireClauses(h.snap.state.clauses, { at: now, ttlMs: TTL }).removed,
            expired,
            "a held snapshot expires its own clauses",
          );
          const ended = clauses.filter((c) => c.scope === "session" && c.sessionId === "s1").map((c) => c.id);
          assert.deepEqual(endSessionClauses(h.snap.state.clauses, "s1").removed, ended, "a held snapshot ends its own session clauses");
        }
      }),
      { numRuns: 150 },
    );
  });
});
