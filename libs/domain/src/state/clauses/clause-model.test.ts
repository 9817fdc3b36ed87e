import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compareUtf8 } from "../bytes.js";
import { StateEngine } from "../engine/engine.js";
import { isStateError } from "../errors.js";
import { makeStep } from "../steps/step-record.js";

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
  | { op: "end"; session: string };

const TTL = 100;
const CAP = 3;
const VARS = ["tool:a", "tool:b", "prev_tool:a", "outcome:success", "error:timeout"];
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("add" as const),
    id: fc.constantFrom("k1", "k2", "k3", "k4", "k5"),
    vars: fc.array(fc.constantFrom(...VARS), { minLength: 1, maxLength: 3 }),
    negs: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    session: fc.constantFrom("", "s1"),
  }),
  fc.record({
    op: fc.constant("step" as const),
    session: fc.constantFrom("s1", "s2"),
    tool: fc.constantFrom("a", "b"),
    fail: fc.boolean(),
  }),
  fc.record({ op: fc.constant("decide" as const), session: fc.constantFrom("s1", "s2"), tool: fc.constantFrom("a", "b") }),
  fc.record({ op: fc.constant("gc" as const), jump: fc.constantFrom(0, 60, 120) }),
  fc.record({ op: fc.constant("end" as const), session: fc.constantFrom("s1", "s2") }),
);

const sig = (ls: { variable: string; negated: boolean }[]): string =>
  [...new Set(ls.map((l) => `${l.negated ? "-" : "+"}${l.variable}`))].sort().join("|");

function modelDecide(m: Model, session: string, tool: string): ModelClause | undefined {
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
    (c) => (c.scope === "project" || c.session === session) && c.literals.every((l) => facts.has(l.variable) === l.negated),
  );
  violated.sort((x, y) => x.learnedAt - y.learnedAt || compareUtf8(x.id, y.id));
  return violated[0];
}

/** Applies one op to model and engine; returns a description of any disagreement. */
function step(m: Model, e: StateEngine, o: Op, now: number): void {
  switch (o.op) {
    case "add": {
      const literals = o.vars.map((variable, i) => ({ variable, negated: o.negs[i] ?? true }));
      const s = sig(literals);
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
        dup.refreshedAt = now;
        assert.equal(e.addClause(input).result.outcome, "refreshed", "duplicate literal set refreshes");
        return;
      }
      if (m.clauses.some((c) => c.id === o.id)) {
        assert.throws(
          () => e.addClause(input),
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
      assert.equal(e.addClause(input).result.evicted, evicted, "same clause evicted");
      return;
    }
    case "step": {
      const list = m.steps.get(o.session) ?? [];
      list.push({ tool: o.tool, outcome: o.fail ? "failure" : "success", error: o.fail ? "timeout" : "" });
      m.steps.set(o.session, list);
      e.recordStep(
        makeStep({
          sessionId: o.session,
          actor: "main_agent",
          decision: "execute_tool",
          tool: o.tool,
          outcome: o.fail ? "failure" : "success",
          errorCategory: o.fail ? "timeout" : "",
        }),
      );
      return;
    }
    case "decide": {
      const blocker = modelDecide(m, o.session, o.tool);
      if (blocker) {
        blocker.useCount++;
        blocker.lastUsed = now;
      }
      const v = e.checkDecisionAllowed(o.session, o.tool).result;
      assert.equal(v.allowed, blocker === undefined, `decision on ${o.tool} in ${o.session}`);
      assert.equal(v.clause?.id, blocker?.id, "same blocking clause");
      return;
    }
    case "gc": {
      const removed = m.clauses
        .filter((c) => now - c.refreshedAt > TTL)
        .map((c) => c.id)
        .sort(compareUtf8);
      m.clauses = m.clauses.filter((c) => now - c.refreshedAt <= TTL);
      assert.deepEqual(e.garbageCollectClauses().result, removed, "same clauses expire");
      return;
    }
    case "end": {
      m.steps.delete(o.session);
      const removed = m.clauses
        .filter((c) => c.scope === "session" && c.session === o.session)
        .map((c) => c.id)
        .sort(compareUtf8);
      m.clauses = m.clauses.filter((c) => !(c.scope === "session" && c.session === o.session));
      assert.deepEqual(e.endSession(o.session).result, removed, "same session clauses end");
    }
  }
}

describe("clause store against a naive model", () => {
  it("agrees on learning, refreshing, eviction, expiry, session end and decisions", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        let now = 0;
        const e = new StateEngine({ now: () => now, config: { clauseTtlMs: TTL, maxClauses: CAP } });
        const m: Model = { clauses: [], steps: new Map() };
        ops.forEach((o) => {
          now += 10 + (o.op === "gc" ? o.jump : 0);
          step(m, e, o, now);
          const stored = e
            .snapshot()
            .constraints.allClauses()
            .map((c) => [c.id, c.useCount, c.lastUsed, c.refreshedAt]);
          const expected = [...m.clauses].sort((x, y) => compareUtf8(x.id, y.id)).map((c) => [c.id, c.useCount, c.lastUsed, c.refreshedAt]);
          assert.deepEqual(stored, expected, `clauses after ${o.op}`);
        });
      }),
      { numRuns: 150 },
    );
  });
});
