import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isStateError } from "../errors.js";
import type { StateEvent } from "../events/event.js";
import type { Delta, ProofDelta } from "../delta/delta.js";
import { makeStep } from "../steps/step-record.js";
import { StateEngine } from "./engine.js";

const pd = (nodeId: string, proof = 1n): ProofDelta => ({
  kind: "proof",
  source: "soft",
  updates: [{ nodeId, proof, disproof: 1n, status: "expanded", source: "soft", updatedAt: 1 }],
});
const step = (sessionId: string, tool: string, extra = {}) =>
  makeStep({ sessionId, actor: "main_agent", decision: "execute_tool", tool, outcome: "success", ...extra });
const json = (e: StateEngine): string => JSON.stringify(e.exportDocument());

// A hard `hotspots` analytics run at `queryTime` that found `results`.
const hotspotsRun = (queryTime: number, results: string[]): Delta => ({
  kind: "analytics",
  source: "hard",
  record: {
    id: "",
    queryType: "hotspots",
    queryTime,
    resultCount: results.length,
    results,
    cycles: [],
    path: [],
    executionMs: 1,
    params: {},
  },
});

describe("generation and events", () => {
  it("bumps the generation by one for every kind of mutation", () => {
    const e = new StateEngine();
    const events: (StateEvent | undefined)[] = [
      e.apply(pd("n")).event,
      e.updateProof({ nodeId: "n", type: "increment", delta: 1n, reason: "", source: "soft" }).event,
      e.recordStep(step("s", "t")).event,
      e.addClause({ id: "c", literals: [{ variable: "tool:t", negated: true }], source: "hard", failureType: "x" }).event,
      e.checkDecisionAllowed("s", "t").event,
      e.recordSimilarity({ a: "a", b: "b", distance: 1 }).event,
      e.restore(e.checkpoint()).event,
      e.endSession("s").event,
    ];
    assert.deepEqual(
      events.map((x) => x?.generation),
      [1, 2, 3, 4, 5, 6, 7, 8],
      "one generation per mutation",
    );
    assert.deepEqual(
      events.map((x) => x?.type),
      [
        "delta_applied",
        "proof_updated",
        "step_recorded",
        "clause_added",
        "clause_used",
        "similarity_recorded",
        "state_restored",
        "session_ended",
      ],
      "event types",
    );
    for (const ev of events) assert.deepEqual(JSON.parse(JSON.stringify(ev)), ev, `${ev?.type} is plain JSON-safe data`);
  });

  it("leaves the generation alone when ending a session that has nothing to end", () => {
    const e = new StateEngine();
    e.apply(pd("n"));
    const before = e.state;
    const r = e.endSession("unknown");
    assert.equal(r.event, undefined, "no event for a no-op");
    assert.equal(r.generation, 1, "generation unchanged");
    assert.equal(e.state, before, "state unchanged");
    assert.deepEqual(r.result, [], "no clauses removed");
  });

  it("rejects nil inputs with INVALID_ARGUMENT naming them, changing nothing", () => {
    const e = new StateEngine();
    const calls: [string, () => unknown][] = [
      ["step", () => e.recordStep(null as never)],
      ["pair", () => e.recordSimilarity(undefined as never)],
      ["update", () => e.updateProof(null as never)],
      ["assignment", () => e.checkAssignment(null as never)],
      ["assignment", () => e.snapshot().constraints.checkAssignment(undefined as never, 0)],
    ];
    for (const [field, call] of calls) {
      assert.throws(call, (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === field, `nil ${field}`);
    }
    assert.equal(e.generation, 0, "nothing changed");
  });

  it("refuses a mutation when the expected generation differs", () => {
    const e = new StateEngine();
    e.apply(pd("a"));
    assert.throws(
      () => e.apply(pd("b"), { expectedGeneration: 0 }),
      (err: unknown) => isStateError(err, "GENERATION_MISMATCH") && err.field === "expectedGeneration",
      "mismatch",
    );
    assert.equal(e.apply(pd("b"), { expectedGeneration: 1 }).generation, 2, "match applies");
  });

  it("checks the expected generation of a decision check whether or not a clause blocks", () => {
    const e = new StateEngine();
    e.recordStep(step("s", "t"));
    const mismatch = (err: unknown): boolean => isStateError(err, "GENERATION_MISMATCH");
    assert.throws(() => e.checkDecisionAllowed("s", "t", { expectedGeneration: 0 }), mismatch, "allowed verdict on an unexpected state");
    e.addClause({ id: "c", literals: [{ variable: "tool:t", negated: true }], source: "hard", failureType: "x" });
    assert.throws(() => e.checkDecisionAllowed("s", "t", { expectedGeneration: 0 }), mismatch, "blocked verdict on an unexpected state");
    assert.equal(e.checkDecisionAllowed("s", "t", { expectedGeneration: 2 }).result.allowed, false, "matching generation answers");
  });

  it("indexes an analytics delta in the change history under the markers it writes", () => {
    const e = new StateEngine({ now: () => 77 });
    e.apply(hotspotsRun(5, ["x"]));
    assert.deepEqual(e.snapshot().deltaHistory.byGeneration(1)?.affectedNodes, ["analytics:hotspots:done", "analytics:hotspots:found"]);
  });

  it("records applied deltas in the delta history with their source and session", () => {
    const e = new StateEngine({ now: () => 77 });
    e.apply(pd("n"), { sessionId: "s1", metadata: { why: "test" } });
    const r = e.snapshot().deltaHistory.byGeneration(1);
    assert.deepEqual(
      [r?.id, r?.kind, r?.source, r?.sessionId, r?.at, r?.affectedNodes],
      ["delta_1", "proof", "soft", "s1", 77, ["n"]],
      "record fields",
    );
  });

  it("detects a replayed event that does not fit the state", () => {
    const e = new StateEngine();
    const ev = e.apply(pd("n")).event as StateEvent;
    const other = new StateEngine();
    other.apply(pd("x"));
    assert.throws(
      () => other.replay(ev),
      (err: unknown) => isStateError(err, "REPLAY_DIVERGED"),
      "generation 2 recorded as 1",
    );
  });
});

describe("snapshots", () => {
  it("are O(1) values that later mutations never change", () => {
    const e = new StateEngine();
    e.apply(pd("n", 1n));
    const s = e.snapshot();
    e.apply(pd("n", 2n));
    e.recordStep(step("s", "t"));
    assert.equal(s.proof.get("n")?.proof, 1n, "old snapshot keeps the old value");
    assert.equal(s.steps.history("s").length, 0, "old snapshot has no later steps");
    assert.equal(e.snapshot().proof.get("n")?.proof, 2n, "new snapshot sees the change");
  });

  it("are readable at a recent past generation from a bounded ring", () => {
    const e = new StateEngine({ config: { snapshotRingSize: 3 } });
    for (let i = 1; i <= 5; i++) e.apply(pd("n", BigInt(i)));
    assert.equal(e.snapshotAt(4).proof.get("n")?.proof, 4n, "generation 4 retained");
    assert.throws(
      () => e.snapshotAt(2),
      (err: unknown) => isStateError(err, "SNAPSHOT_NOT_FOUND"),
      "generation 2 left the ring",
    );
  });

  it("stay readable in an engine started from an earlier state with the snapshots retained up to it", () => {
    const e = new StateEngine({ config: { snapshotRingSize: 3 } });
    for (let i = 1; i <= 5; i++) e.apply(pd("n", BigInt(i)));
    const atFour = e.snapshotAt(4);
    const retained = e.retainedSnapshots().filter((s) => s.generation <= 4);
    const reader = new StateEngine({ initial: atFour.state, retained });
    assert.deepEqual(
      reader.retainedSnapshots().map((s) => s.generation),
      [3, 4],
    );
    assert.equal(reader.snapshot(), atFour, "the retained snapshot of the initial state is the current one (its time kept)");
    assert.equal(reader.snapshotAt(3).proof.get("n")?.proof, 3n);
    assert.throws(
      () => reader.snapshotAt(5),
      (err: unknown) => isStateError(err, "SNAPSHOT_NOT_FOUND"),
      "later generations are ignored",
    );
  });

  it("measure staleness and report stale ones", () => {
    const e = new StateEngine({ config: { staleGenerationLimit: 2 } });
    const s = e.snapshot();
    for (let i = 0; i < 3; i++) e.apply(pd(`n${i}`));
    assert.equal(e.staleness(s), 3, "three generations behind");
    assert.throws(
      () => e.assertFresh(s),
      (err: unknown) => isStateError(err, "SNAPSHOT_STALE"),
      "over the limit",
    );
    e.assertFresh(e.snapshot());
    assert.equal(e.staleness(e.snapshot()), 0, "current snapshot is fresh");
  });
});

describe("checkpoint, restore, fork", () => {
  it("restoring the same checkpoint twice gives the same state, and the generation still moves forward", () => {
    const e = new StateEngine();
    e.apply(pd("n", 1n));
    e.recordStep(step("s", "t"));
    const cp = e.checkpoint();
    assert.equal(cp.id, "checkpoint-2", "deterministic checkpoint id");
    // Content only: generations, modification generations and the replacement's move forward with every restore.
    const content = (): string =>
      JSON.stringify({ ...e.exportDocument(), generation: 0, deltaHistory: [], replacedGeneration: 0 }, (k, v) =>
        k === "modGeneration" ? undefined : v,
      );
    const image = content();
    e.apply(pd("n", 9n));
    e.restore(cp);
    e.apply(pd("m", 5n));
    e.restore(cp);
    assert.equal(content(), image, "second restore equals the checkpoint");
    assert.equal(e.generation, 6, "never moves backwards");
    assert.equal(cp.state.proofs.get("n")?.proof, 1n, "the checkpoint itself was never mutated");
  });

  it("restoring a checkpoint rolls back the reasoning indexes but keeps the steps and analytics runs since", () => {
    const e = new StateEngine();
    e.apply(pd("n", 1n));
    const cp = e.checkpoint();
    for (let i = 0; i < 5; i++)
      e.recordStep(makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "Grep", outcome: "success" }));
    e.apply(hotspotsRun(3, []));
    e.apply(pd("n", 9n));
    assert.equal(e.checkCircuitBreaker("s", "Grep").shouldFire, true, "five Grep calls fire the breaker");
    e.restore(cp);
    const s = e.snapshot();
    assert.equal(s.proof.get("n")?.proof, 1n, "proofs rolled back");
    assert.equal(s.proof.get("analytics:hotspots:done"), undefined, "analytics markers are proof entries: rolled back");
    assert.equal(s.steps.history("s").length, 5, "steps are facts: kept");
    assert.equal(e.checkCircuitBreaker("s", "Grep").shouldFire, true, "the breaker still counts the calls made");
    assert.equal(s.analytics.hasRun("hotspots"), true, "analytics runs kept");
  });

  it("forks are independent", () => {
    const e = new StateEngine();
    e.apply(pd("n", 1n));
    const f = e.fork();
    f.apply(pd("n", 2n));
    e.apply(pd("m", 3n));
    assert.deepEqual(
      [e.state.proofs.get("n")?.proof, f.state.proofs.get("n")?.proof, f.state.proofs.has("m")],
      [1n, 2n, false],
      "no sharing of changes",
    );
  });

  it("replays a restore event from its embedded document", () => {
    const e = new StateEngine();
    const events: StateEvent[] = [];
    events.push(e.apply(pd("n", 1n)).event as StateEvent);
    const cp = e.checkpoint();
    events.push(e.apply(pd("n", 2n)).event as StateEvent);
    events.push(e.restore(cp).event as StateEvent);
    const replayed = StateEngine.fromEvents(JSON.parse(JSON.stringify(events)));
    assert.equal(json(replayed), json(e), "identical after replay");
  });
});

describe("steps through the engine", () => {
  it("sanitizes step text before storing and journaling it", () => {
    const e = new StateEngine();
    const m = e.recordStep(
      step("s", "t", { reasoning: "login with password=hunter2x now", metadata: { "api_key=abcdefghijklmnopqrstuv": "x" } }),
    );
    assert.equal(m.result.reasoning, "login with [REDACTED] now", "unquoted password redacted");
    assert.deepEqual(Object.keys(m.result.metadata), ["[REDACTED]"], "metadata key redacted");
    assert.equal(
      m.event?.type === "step_recorded" ? m.event.step.reasoning : "",
      "login with [REDACTED] now",
      "event carries the sanitized text",
    );
  });

  it("refuses a step whose tool looks like a secret instead of storing and journaling it", () => {
    const e = new StateEngine();
    const leaked = `xoxp-${"7".repeat(14)}`;
    assert.throws(
      () => e.recordStep(step("s", leaked)),
      (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === "tool",
      "refused naming the tool",
    );
    assert.equal(e.generation, 0, "nothing changed");
    assert.deepEqual(e.snapshot().steps.sessions(), [], "no session bucket was made");
    assert.equal(e.recordStep(step("s", "grep_repo")).result.tool, "grep_repo", "an ordinary tool name is kept as given");
  });

  it("refuses a session id that looks like a secret in every mutation that would store or journal it", () => {
    const e = new StateEngine();
    const leaked = `AKIA${"Q".repeat(16)}`;
    const refused = (what: string, run: () => unknown) =>
      assert.throws(run, (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === "sessionId", what);
    refused("a step", () => e.recordStep(step(leaked, "grep")));
    refused("a cycle feed", () => e.checkCycle(leaked, "state-1"));
    refused("a detector reset", () => e.resetCycleDetector(leaked));
    refused("a session end", () => e.endSession(leaked));
    refused("a session clause", () =>
      e.addClause({
        id: "c",
        literals: [{ variable: "tool:x", negated: true }],
        source: "hard",
        failureType: "x",
        scope: "session",
        sessionId: leaked,
      }),
    );
    assert.equal(e.generation, 0, "nothing changed");
    const uuid = "019ce3c6-58b9-7131-98df-37f6f042c16f";
    assert.equal(e.recordStep(step(uuid, "grep")).result.sessionId, uuid, "an ordinary id, a UUID here, is kept as given");
  });

  it("builds the decision assignment from the session's last two steps", () => {
    const e = new StateEngine();
    e.recordStep(step("s", "grep"));
    e.recordStep(step("s", "read", { outcome: "failure", errorCategory: "timeout" }));
    e.addClause({
      id: "c",
      literals: [
        { variable: "prev_prev_tool:grep", negated: true },
        { variable: "prev_tool:read", negated: true },
        { variable: "error:timeout", negated: true },
        { variable: "tool:grep", negated: true },
      ],
      source: "hard",
      failureType: "x",
    });
    assert.equal(e.checkDecisionAllowed("s", "grep").result.allowed, false, "grep, read(timeout), grep is blocked");
    assert.equal(e.checkDecisionAllowed("other", "grep").result.allowed, true, "other session allowed");
    assert.deepEqual(e.checkDecisionAllowed("", "grep").result, { allowed: true, reason: "", clause: undefined }, "empty input allowed");
  });
});

describe("values handed out", () => {
  it("are frozen, so callers cannot edit a snapshot in place", () => {
    const e = new StateEngine();
    e.apply(pd("n"));
    e.recordStep(step("s", "t", { metadata: { k: "v" } }));
    const s = e.snapshot();
    const rec = s.deltaHistory.byGeneration(1);
    assert.ok(Object.isFrozen(s.proof.get("n")), "proof value frozen");
    assert.ok(Object.isFrozen(rec?.delta) && Object.isFrozen(rec?.affectedNodes), "delta record frozen");
    assert.ok(Object.isFrozen(s.steps.last("s")?.metadata), "step metadata frozen");
    assert.throws(
      () => {
        (s.proof.get("n") as { proof: bigint }).proof = 99n;
      },
      TypeError,
      "assignment to a frozen value throws in strict mode",
    );
  });

  it("are frozen also when set by an incremental update or a disproof propagation", () => {
    const e = new StateEngine();
    e.apply({ kind: "dependency", source: "hard", add: [{ from: "p", to: "c" }], remove: [] });
    e.updateProof({ nodeId: "n", type: "increment", delta: 1n, reason: "", source: "soft" });
    e.propagateDisproof("c");
    const s = e.snapshot();
    assert.ok(Object.isFrozen(s.proof.get("n")), "updated value frozen");
    assert.ok(Object.isFrozen(s.proof.get("p")), "propagated value frozen");
    assert.throws(
      () => {
        (s.proof.get("n") as { proof: bigint }).proof = 99n;
      },
      TypeError,
      "a snapshot cannot be edited through an updated value",
    );
    assert.equal(s.proof.get("n")?.proof, 11n, "snapshot unchanged");
  });

  it("include frozen index objects, so a snapshot's state cannot be edited in place", () => {
    const e = new StateEngine();
    e.apply({ kind: "streaming", source: "soft", increments: [{ item: "i", count: 1 }], observed: [] });
    e.recordSimilarity({ a: "a", b: "b", distance: 1 });
    e.recordStep(step("s", "t"));
    e.addClause({ id: "c", literals: [{ variable: "tool:t", negated: true }], source: "hard", failureType: "x" });
    const imported = StateEngine.fromDocument(e.exportDocument());
    for (const [name, st] of [
      ["live", e.snapshot().state],
      ["imported", imported.snapshot().state],
      ["empty", new StateEngine().snapshot().state],
    ] as const) {
      const objects = {
        clauses: st.clauses,
        watches: st.clauses.watches,
        similarity: st.similarity,
        dependency: st.dependency,
        history: st.history,
        streaming: st.streaming,
        frequency: st.streaming.frequency,
        cardinality: st.streaming.cardinality,
      };
      for (const [k, o] of Object.entries(objects)) assert.ok(Object.isFrozen(o), `${name}: ${k} frozen`);
      if (name !== "empty") assert.ok(Object.isFrozen(st.steps.get("s")), `${name}: session steps frozen`);
    }
    const s = e.snapshot();
    assert.throws(
      () => {
        (s.state.similarity as { pairCount: number }).pairCount = 0;
      },
      TypeError,
      "cannot edit the pair count",
    );
    assert.equal(e.snapshot().similarity.size(), 1, "state unchanged");
  });

  it("are shared snapshot objects that one caller cannot repoint for the others", () => {
    const e = new StateEngine();
    e.apply(pd("n"));
    const mine = e.snapshot();
    assert.throws(
      () => {
        (mine as { state: unknown }).state = new StateEngine().state;
      },
      TypeError,
      "snapshot fields are read-only at run time",
    );
    assert.equal(e.snapshotAt(1).proof.size(), 1, "the ring's snapshot still shows generation 1");
  });

  it("do not alias the caller's delta", () => {
    const e = new StateEngine();
    const d = {
      kind: "history" as const,
      source: "soft" as const,
      entries: [{ id: "h", nodeId: "n", action: "a", result: "r", source: "soft" as const, timestamp: 1, metadata: { k: "v" } }],
    };
    e.apply(d);
    d.entries[0]!.metadata.k = "changed";
    assert.equal(e.snapshot().history.recent(1)[0]?.metadata.k, "v", "history entry copied");
    const recorded = e.snapshot().deltaHistory.byGeneration(1)?.delta;
    assert.equal(recorded?.kind === "history" ? recorded.entries[0]?.metadata.k : "", "v", "delta record copied");
  });
});
