import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { isStateError } from "../errors.js";
import { StateEngine } from "../engine/engine.js";
import { makeStep } from "../steps/step-record.js";
import { addClause, checkAssignment, EMPTY_CLAUSES, type ClauseInput } from "./clause-store.js";
import { clauseString, closedWorldAssignment, explicitAssignment, isViolated, type Literal } from "./clause.js";
import type { ClauseClock } from "./clause-lifetimes.js";

/** A clock at which no clause of these tests has expired: the checks here are about the index, not time. */
const UNEXPIRED: ClauseClock = { at: 0, ttlMs: 0 };

const lit = (variable: string, negated = true): Literal => ({ variable, negated });
const clause = (id: string, literals: Literal[], extra: Partial<ClauseInput> = {}): ClauseInput => ({
  id,
  literals,
  source: "hard",
  failureType: "cycle_detected",
  ...extra,
});

describe("clause values", () => {
  it("renders like the reference", () => {
    assert.equal(
      clauseString({ literals: [lit("tool:a"), lit("outcome:success", false)] }),
      "(¬tool:a ∨ outcome:success)",
      "negation sign and disjunction",
    );
    assert.equal(clauseString({ literals: [] }), "(empty)", "empty clause");
  });

  it("is violated only when every literal is assigned and false (three-valued)", () => {
    const c = { literals: [lit("x"), lit("y", false)] };
    assert.equal(isViolated(c, explicitAssignment({ x: true, y: false })), true, "all false");
    assert.equal(isViolated(c, explicitAssignment({ x: true })), false, "y unassigned");
    assert.equal(isViolated(c, closedWorldAssignment(["x"])), true, "closed world: y absent means false");
    assert.equal(isViolated({ literals: [] }, explicitAssignment({})), true, "empty clause is violated");
  });

  it("validates with named fields", () => {
    const e = new StateEngine();
    const bad: [ClauseInput, string][] = [
      [clause("", [lit("x")]), "id"],
      [clause("c", []), "literals"],
      [clause("c", [lit("")]), "literals[0].variable"],
      [clause("c", [lit("x")], { source: "soft" }), "source"],
      [clause("c", [lit("x")], { scope: "session" }), "sessionId"],
    ];
    for (const [input, field] of bad) {
      assert.throws(
        () => e.addClause(input),
        (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === field,
        `rejects ${field}`,
      );
    }
    assert.equal(e.generation, 0, "rejections change nothing");
  });

  it("rejects a nil clause, a literal list that is not a list and nil literals with named fields", () => {
    const e = new StateEngine();
    assert.throws(
      () => e.addClause(null as never),
      (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === "clause" && err.message.includes("clause must not be nil"),
      "nil clause",
    );
    assert.throws(
      () => e.addClause(clause("c", "x" as never)),
      (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === "literals",
      "literals not a list",
    );
    assert.throws(
      () => e.addClause(clause("c", [lit("x"), null as never])),
      (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === "literals[1]",
      "nil literal",
    );
    assert.equal(e.generation, 0, "rejections change nothing");
  });
});

describe("clause store", () => {
  it("lets clauses with positive literals block under the closed-world assignment", () => {
    const e = new StateEngine();
    e.recordStep(
      makeStep({
        sessionId: "s",
        actor: "main_agent",
        decision: "execute_tool",
        tool: "build",
        outcome: "failure",
        errorCategory: "timeout",
      }),
    );
    // "Do not retry unless the last step succeeded."
    e.addClause(clause("retry-after-failure", [lit("tool:retry"), lit("outcome:success", false)]));
    const v = e.checkDecisionAllowed("s", "retry").result;
    assert.equal(v.allowed, false, "blocked although the clause has a positive literal");
    assert.equal(v.reason, "violates learned clause retry-after-failure: (¬tool:retry ∨ outcome:success)", "reason names the clause");
    assert.equal(e.checkDecisionAllowed("s", "build").result.allowed, true, "other tools allowed");
  });

  it("gives each blocked decision the reason of the clause blocking it now, after its id is reused for other literals", () => {
    let now = 1000;
    const e = new StateEngine({ now: () => now, config: { clauseTtlMs: 100 } });
    e.recordStep(makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "b", outcome: "success" }));
    e.addClause(clause("c1", [lit("tool:a")]));
    const first = "violates learned clause c1: (¬tool:a)";
    assert.equal(e.checkDecisionAllowed("s", "a").result.reason, first, "first block");
    assert.equal(e.checkDecisionAllowed("s", "a").result.reason, first, "the same clause again");
    now = 1200;
    assert.deepEqual(e.garbageCollectClauses().result, ["c1"], "c1 expires");
    e.addClause(clause("c1", [lit("tool:a"), lit("prev_tool:b")]));
    assert.equal(
      e.checkDecisionAllowed("s", "a").result.reason,
      "violates learned clause c1: (¬tool:a ∨ ¬prev_tool:b)",
      "the new literals",
    );
  });

  it("chooses deterministically among violated clauses: earliest learned, then smallest id", () => {
    const e = new StateEngine({ now: () => 10 });
    e.addClause(clause("zeta", [lit("tool:a")], { learnedAt: 5 }));
    e.addClause(clause("beta", [lit("tool:a"), lit("prev_tool:b", false)], { learnedAt: 5 }));
    e.addClause(clause("alpha", [lit("tool:a"), lit("error:x", false)], { learnedAt: 9 }));
    const r = e.checkAssignment(closedWorldAssignment(["tool:a"]));
    assert.equal(r.violatedClause?.id, "beta", "learnedAt 5 ties broken by id");
    assert.equal(
      r.reason,
      "assignment violates learned clause: (¬tool:a ∨ prev_tool:b)",
      "the reason is the reference's, the clause without its id",
    );
  });

  it("refreshes the TTL and use count of a duplicate literal set", () => {
    let now = 1000;
    const e = new StateEngine({ now: () => now, config: { clauseTtlMs: 100 } });
    e.addClause(clause("c1", [lit("x"), lit("y")]));
    now = 1090;
    const dup = e.addClause(clause("c2", [lit("y"), lit("x"), lit("y")]));
    assert.equal(dup.result.outcome, "refreshed", "same set in another order is a duplicate");
    assert.equal(dup.result.clause.id, "c1", "existing clause kept");
    assert.equal(dup.result.clause.useCount, 1, "use count bumped");
    now = 1150;
    assert.deepEqual(e.garbageCollectClauses().result, [], "refresh moved the expiry");
    now = 1191;
    assert.deepEqual(e.garbageCollectClauses().result, ["c1"], "expires TTL after the refresh");
  });

  it("takes a learned time after now as now, so the clause's time-to-live starts now and collection removes it", () => {
    let now = 1000;
    const e = new StateEngine({ now: () => now, config: { clauseTtlMs: 100 } });
    const added = e.addClause(clause("future", [lit("tool:a")], { learnedAt: 99_999_999_999_999 }));
    assert.deepEqual([added.result.clause.learnedAt, added.result.clause.refreshedAt], [1000, 1000], "learned and refreshed now");
    assert.equal((added.event as { clause: ClauseInput }).clause.learnedAt, 1000, "the journaled event holds the time used");
    const past = e.addClause(clause("past", [lit("tool:b")], { learnedAt: 400 }));
    assert.deepEqual([past.result.clause.learnedAt, past.result.clause.refreshedAt], [400, 1000], "an earlier time is kept");
    now = 1101;
    assert.deepEqual(e.garbageCollectClauses().result.sort(), ["future", "past"], "both expire a TTL after now");
  });

  it("does not confuse a negated variable with a variable spelled with ¬", () => {
    const e = new StateEngine();
    e.addClause(clause("c1", [lit("x", true)]));
    assert.equal(e.addClause(clause("c2", [lit("¬x", false)])).result.outcome, "added", "distinct literal sets");
  });

  it("rejects an id reused for different literals", () => {
    const e = new StateEngine();
    e.addClause(clause("c1", [lit("x")]));
    assert.throws(
      () => e.addClause(clause("c1", [lit("y")])),
      (err: unknown) => isStateError(err, "CLAUSE_CONFLICT"),
      "CLAUSE_CONFLICT",
    );
    assert.equal(e.state.clauses.clauses.get("c1")?.literals[0]?.variable, "x", "original kept");
  });

  it("evicts the least recently used clause at the cap", () => {
    let now = 1;
    const e = new StateEngine({ now: () => now++, config: { maxClauses: 2 } });
    e.recordStep(makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "a", outcome: "success" }));
    e.addClause(clause("old", [lit("tool:a")]));
    e.addClause(clause("used", [lit("tool:b")]));
    e.checkDecisionAllowed("s", "a"); // marks "old" as used
    const r = e.addClause(clause("new", [lit("tool:c")]));
    assert.equal(r.result.evicted, "used", "least recently used goes");
    assert.deepEqual(
      e
        .snapshot()
        .constraints.allClauses()
        .map((c) => c.id),
      ["new", "old"],
      "sorted by id",
    );
  });

  it("ends session-scoped clauses with their session", () => {
    const e = new StateEngine();
    e.addClause(clause("mine", [lit("x")], { scope: "session", sessionId: "s1" }));
    e.addClause(clause("other", [lit("y")], { scope: "session", sessionId: "s2" }));
    e.addClause(clause("proj", [lit("z")]));
    assert.deepEqual(e.endSession("s1").result, ["mine"], "only s1's session clauses");
    assert.deepEqual(
      e
        .snapshot()
        .constraints.allClauses()
        .map((c) => c.id),
      ["other", "proj"],
      "rest kept",
    );
  });

  it("does not block a decision in one session with a clause scoped to another session", () => {
    const e = new StateEngine();
    e.addClause(clause("s1-no-a", [lit("tool:a")], { scope: "session", sessionId: "s1" }));
    const other = e.checkDecisionAllowed("s2", "a");
    assert.deepEqual([other.result.allowed, other.event], [true, undefined], "s2 is not bound by s1's clause, and nothing is recorded");
    assert.equal(e.checkDecisionAllowed("s1", "a").result.clause?.id, "s1-no-a", "s1 is");
    assert.equal(
      e.checkAssignment(closedWorldAssignment(["tool:a"])).violatedClause?.id,
      "s1-no-a",
      "an assignment outside any session is checked against every clause",
    );
    e.addClause(clause("no-a", [lit("tool:a")]));
    assert.equal(e.checkDecisionAllowed("s2", "a").result.clause?.id, "no-a", "a project clause binds every session");
  });

  it("keeps a clause learned for a longer lifetime when an equal session clause ends", () => {
    const e = new StateEngine();
    e.addClause(clause("s1-only", [lit("x")], { scope: "session", sessionId: "s1" }));
    assert.equal(
      e.addClause(clause("proj", [lit("x")])).result.outcome,
      "added",
      "a project clause is not a duplicate of a session clause",
    );
    assert.equal(
      e.addClause(clause("s2-only", [lit("x")], { scope: "session", sessionId: "s2" })).result.outcome,
      "added",
      "nor is another session's",
    );
    assert.equal(
      e.addClause(clause("again", [lit("x")], { scope: "session", sessionId: "s1" })).result.outcome,
      "refreshed",
      "the same session's is",
    );
    assert.deepEqual(e.endSession("s1").result, ["s1-only"], "s1's clause ends with s1");
    assert.deepEqual(
      e
        .snapshot()
        .constraints.allClauses()
        .map((c) => c.id),
      ["proj", "s2-only"],
      "the others outlive s1",
    );
    const back = StateEngine.fromDocument(JSON.parse(JSON.stringify(e.exportDocument())));
    assert.deepEqual(
      back
        .snapshot()
        .constraints.allClauses()
        .map((c) => c.id),
      ["proj", "s2-only"],
      "equal literal sets of different lifetimes import",
    );
  });

  it("finds exactly the violated clauses a brute-force scan finds (watched-literal index)", () => {
    const vars = ["a", "b", "c", "d"];
    const litArb = fc.record({ variable: fc.constantFrom(...vars), negated: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(fc.array(litArb, { minLength: 1, maxLength: 3 }), { maxLength: 12 }),
        fc.dictionary(fc.constantFrom(...vars), fc.boolean()),
        (sets, values) => {
          let store = EMPTY_CLAUSES;
          sets.forEach((literals, i) => {
            store = addClause(store, clause(`c${String(i).padStart(2, "0")}`, literals), i, 1000).store;
          });
          const assignment = explicitAssignment(values);
          const brute = [...store.clauses.values()]
            .filter((c) => isViolated(c, assignment))
            .sort((x, y) => x.learnedAt - y.learnedAt || (x.id < y.id ? -1 : 1));
          assert.equal(checkAssignment(store, assignment, UNEXPIRED).violatedClause?.id, brute[0]?.id, "index and brute force agree");
        },
      ),
      { numRuns: 200 },
    );
  });
});
