import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isStateError } from "../errors.js";
import { StateEngine } from "../engine/engine.js";
import { makeStep } from "../steps/step-record.js";
import { DEFAULT_PROOF_NUMBER, PROOF_INFINITY } from "./proof-number.js";
import type { ProofUpdate } from "./proof-update.js";

const upd = (nodeId: string, type: ProofUpdate["type"], source: ProofUpdate["source"] = "hard", delta = 1n): ProofUpdate => ({
  nodeId,
  type,
  delta,
  reason: "r",
  source,
});

describe("proof numbers", () => {
  it("uses the reference's constants", () => {
    assert.equal(PROOF_INFINITY, 18446744073709551615n, "infinity is 2^64-1");
    assert.equal(DEFAULT_PROOF_NUMBER, 10n, "initial proof number is 10");
  });

  it("increments from the default, moving unknown to expanded, and saturates at infinity", () => {
    const e = new StateEngine({ now: () => 42 });
    const v = e.updateProof(upd("n", "increment", "hard", 5n)).result;
    assert.equal(v.proof, 15n, "10 + 5");
    assert.equal(v.disproof, 10n, "disproof untouched");
    assert.equal(v.status, "expanded", "unknown becomes expanded");
    assert.equal(v.updatedAt, 42, "stamped with the injected clock");
    assert.equal(
      e.updateProof(upd("n", "increment", "hard", PROOF_INFINITY)).result.proof,
      PROOF_INFINITY,
      "hard increment saturates at infinity",
    );
  });

  it("soft increments stop one below infinity: exhausting a node is a hard action", () => {
    const e = new StateEngine();
    const v = e.updateProof(upd("n", "increment", "soft", PROOF_INFINITY)).result;
    assert.equal(v.proof, PROOF_INFINITY - 1n, "soft saturation at INF-1");
    assert.equal(e.checkCircuitBreaker("s", "t").shouldFire, false, "unrelated breaker unaffected");
  });

  it("decrements to zero at most", () => {
    const e = new StateEngine();
    assert.equal(e.updateProof(upd("n", "decrement", "soft", 3n)).result.proof, 7n, "10 - 3");
    assert.equal(e.updateProof(upd("n", "decrement", "soft", 100n)).result.proof, 0n, "floored at 0");
  });

  it("lets only hard signals disprove, prove, or reset a decided node", () => {
    const e = new StateEngine();
    for (const type of ["disproven", "proven"] as const) {
      assert.throws(
        () => e.updateProof(upd("n", type, "soft")),
        (err: unknown) => isStateError(err, "HARD_SIGNAL_VIOLATION"),
        `soft ${type} rejected`,
      );
    }
    assert.equal(e.generation, 0, "rejections change nothing");
    const d = e.updateProof(upd("n", "disproven", "safety")).result;
    assert.equal(d.proof, PROOF_INFINITY, "disproven sets infinity");
    assert.equal(d.status, "disproven", "status disproven");
    assert.throws(
      () => e.updateProof(upd("n", "reset", "soft")),
      (err: unknown) => isStateError(err, "HARD_SIGNAL_VIOLATION"),
      "soft reset of a disproven node rejected",
    );
    assert.throws(
      () => e.updateProof(upd("n", "decrement", "soft")),
      (err: unknown) => isStateError(err, "HARD_SIGNAL_VIOLATION"),
      "soft decrement cannot revive a disproven node",
    );
    const r = e.updateProof(upd("n", "reset", "hard")).result;
    assert.deepEqual([r.proof, r.disproof, r.status], [10n, 10n, "unknown"], "hard reset restores defaults");
  });

  it("does not let a soft increment or decrement change a decided node or relabel it as soft", () => {
    const e = new StateEngine();
    e.updateProof(upd("down", "disproven", "hard"));
    e.updateProof(upd("up", "proven", "safety"));
    e.updateProof({ ...upd("spent", "increment", "hard"), delta: PROOF_INFINITY });
    const before = e.generation;
    for (const [node, type] of [
      ["down", "increment"],
      ["up", "increment"],
      ["up", "decrement"],
      ["spent", "increment"],
    ] as const) {
      assert.throws(
        () => e.updateProof(upd(node, type, "soft")),
        (err: unknown) => isStateError(err, "HARD_SIGNAL_VIOLATION"),
        `soft ${type} of ${node} rejected`,
      );
    }
    assert.equal(e.generation, before, "rejections change nothing");
    const kept = e.snapshot().proof;
    assert.deepEqual(
      ["down", "up", "spent"].map((n) => [kept.get(n)?.status, kept.get(n)?.source]),
      [
        ["disproven", "hard"],
        ["proven", "safety"],
        ["expanded", "hard"],
      ],
      "decided nodes keep the hard source that decided them",
    );
    assert.equal(e.updateProof(upd("up", "increment", "hard")).result.proof, 1n, "a hard signal still may change them");
  });

  it("validates updates in the reference's order with named fields", () => {
    const e = new StateEngine();
    const cases: [ProofUpdate, string, string][] = [
      [upd("", "increment"), "nodeId", "node_id must not be empty"],
      [{ ...upd("n", "increment"), type: "bogus" as never }, "type", "is not valid"],
      [upd("n", "increment", "unknown"), "source", "source unknown is not valid (must be hard, soft, or safety)"],
      [upd("n", "increment", "hard", 0n), "delta", "delta must be > 0"],
    ];
    for (const [u, field, text] of cases) {
      assert.throws(
        () => e.updateProof(u),
        (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === field && err.message.includes(text),
        `rejects ${field}`,
      );
    }
  });

  it("bumps the generation and emits an event for every update", () => {
    const e = new StateEngine({ now: () => 9 });
    const m = e.updateProof(upd("n", "increment", "hard", 2n));
    assert.equal(m.generation, 1, "generation bumped");
    assert.deepEqual(
      m.event,
      {
        type: "proof_updated",
        update: { nodeId: "n", type: "increment", delta: "2", reason: "r", source: "hard" },
        formatVersion: 1,
        generation: 1,
        at: 9,
      },
      "event is JSON-safe",
    );
  });
});

describe("circuit breaker", () => {
  const exec = (e: StateEngine, tool: string): void => {
    e.recordStep(makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool, outcome: "success" }));
  };

  it("falls back to execution counts with per-tool thresholds", () => {
    const e = new StateEngine();
    exec(e, "Grep");
    exec(e, "Grep");
    exec(e, "Grep");
    exec(e, "Grep");
    assert.equal(e.checkCircuitBreaker("s", "Grep").shouldFire, false, "Grep threshold is 5");
    exec(e, "Grep");
    const r = e.checkCircuitBreaker("s", "Grep");
    assert.equal(r.shouldFire, true, "fires at 5");
    assert.equal(r.reason, "tool Grep called 5 times (threshold: 5)", "reason names count and threshold");
    exec(e, "read");
    exec(e, "read");
    assert.equal(e.checkCircuitBreaker("s", "read").shouldFire, true, "default threshold 2");
  });

  it("honours configured thresholds", () => {
    const e = new StateEngine({ config: { circuitBreakerThresholds: { read: 3 } } });
    exec(e, "read");
    exec(e, "read");
    assert.equal(e.checkCircuitBreaker("s", "read").shouldFire, false, "configured 3 not reached");
  });

  it("uses the proof entry when present", () => {
    const e = new StateEngine();
    const below = e.checkCircuitBreaker("s", "t");
    assert.deepEqual(
      [below.shouldFire, below.proofNumber, below.reason],
      [false, 10n, "no proof data, execution count below threshold"],
      "no data",
    );
    e.updateProof(upd("session:s:tool:t", "disproven", "hard"));
    const r = e.checkCircuitBreaker("s", "t");
    assert.deepEqual([r.shouldFire, r.reason, r.status], [true, "tool t is disproven", "disproven"], "disproven fires");
    assert.equal(e.checkCircuitBreaker("", "t").reason, "invalid input: empty sessionID or tool", "empty input");
  });
});

describe("disproof propagation", () => {
  const chain = (e: StateEngine, edges: [string, string][]): void => {
    e.apply({ kind: "dependency", source: "hard", add: edges.map(([from, to]) => ({ from, to })), remove: [] });
  };

  it("increments each dependent once, breadth-first, and continues only through exhausted nodes", () => {
    const e = new StateEngine();
    // p1 and p2 depend on x; q depends on both p1 and p2 (a diamond).
    chain(e, [
      ["p1", "x"],
      ["p2", "x"],
      ["q", "p1"],
      ["q", "p2"],
    ]);
    e.updateProof(upd("p1", "increment", "hard", PROOF_INFINITY));
    e.updateProof(upd("p2", "increment", "hard", PROOF_INFINITY));
    const g = e.generation;
    const m = e.propagateDisproof("x");
    assert.deepEqual(m.result, ["p1", "p2", "q"], "visit order is breadth-first, byte-wise within a level");
    assert.equal(e.state.proofs.get("q")?.proof, 11n, "q incremented once although reached twice");
    assert.equal(m.generation, g + 1, "the whole propagation is one atomic mutation");
    assert.equal(m.event?.type, "disproof_propagated", "one event");
  });

  it("stops at the depth limit", () => {
    const e = new StateEngine({ config: { maxPropagationDepth: 3 } });
    const edges: [string, string][] = [];
    for (let i = 1; i <= 6; i++) edges.push([`n${i}`, `n${i - 1}`]);
    chain(e, edges);
    for (let i = 1; i <= 6; i++) e.updateProof(upd(`n${i}`, "disproven", "hard"));
    assert.deepEqual(e.propagateDisproof("n0").result, ["n1", "n2", "n3"], "three levels only");
  });

  it("changes nothing when there are no dependents", () => {
    const e = new StateEngine();
    const m = e.propagateDisproof("lonely");
    assert.deepEqual([m.result, m.event, e.generation], [[], undefined, 0], "no event, no bump");
    assert.throws(
      () => e.propagateDisproof(""),
      (err: unknown) => isStateError(err, "INVALID_ARGUMENT"),
      "empty id rejected",
    );
  });
});
