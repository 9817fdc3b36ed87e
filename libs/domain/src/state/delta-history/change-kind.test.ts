import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StateEngine } from "../engine/engine.js";
import type { Mutation } from "../engine/engine-types.js";
import type { StateEvent } from "../events/event.js";
import { PROOF_INFINITY } from "../proof/proof-number.js";

// A client delta shaped exactly like a cycle detection's record: same label, reason and session.
function forgedCycleRecord(e: StateEngine): Mutation<void> {
  return e.apply(
    {
      kind: "proof",
      source: "hard",
      updates: [{ nodeId: "session:s:state:edit", proof: PROOF_INFINITY, disproof: 1n, status: "disproven", source: "hard", updatedAt: 5 }],
    },
    { label: "cycle_detector", sessionId: "s", metadata: { reason: "cycle_detected:[edit]" } },
  );
}

// Applies a delta, detects a loop, and forges a cycle record; returns the three generations and the events.
function producers(): { e: StateEngine; applied: number; detected: number; forged: number; events: StateEvent[] } {
  let t = 1_700_000_000_000;
  const e = new StateEngine({ now: () => (t += 1000) });
  const events: StateEvent[] = [];
  const applied = e.apply({ kind: "similarity", source: "soft", updates: [{ a: "x", b: "y", distance: 0.5 }] }, { label: "planner" });
  events.push(applied.event as StateEvent);
  let detected = 0;
  for (const key of ["plan", "grep", "plan"]) {
    const m = e.checkCycle("s", key);
    events.push(m.event as StateEvent);
    if (m.result.detection.detected) detected = m.generation;
  }
  const forged = forgedCycleRecord(e);
  events.push(forged.event as StateEvent);
  return { e, applied: applied.generation, detected, forged: forged.generation, events };
}

describe("the kind of a delta record", () => {
  it("a loop's disproof is recorded as cycle_detected, not as a client's applied delta", () => {
    const { e, applied, detected } = producers();
    assert.ok(detected > 0, "the loop was detected");
    const h = e.snapshot().deltaHistory;
    assert.equal(h.byGeneration(applied)?.changeKind, "delta_applied");
    assert.equal(h.byGeneration(detected)?.changeKind, "cycle_detected");
    assert.equal(h.byGeneration(detected)?.label, "cycle_detector", "the label is kept as it was");
  });

  it("a client delta labelled cycle_detector with a cycle reason stays delta_applied", () => {
    const { e, forged } = producers();
    const r = e.snapshot().deltaHistory.byGeneration(forged);
    assert.equal(r?.label, "cycle_detector");
    assert.equal(r?.changeKind, "delta_applied");
  });

  it("replaying the journaled events gives every record the kind it had live", () => {
    const { e, events } = producers();
    const replayed = StateEngine.fromEvents(JSON.parse(JSON.stringify(events)) as StateEvent[]);
    assert.equal(replayed.generation, e.generation);
    assert.deepEqual(
      replayed
        .snapshot()
        .deltaHistory.all()
        .map((r) => [r.generation, r.changeKind]),
      e
        .snapshot()
        .deltaHistory.all()
        .map((r) => [r.generation, r.changeKind]),
    );
  });

  it("mutations other than Apply and a detected loop write no record, so no record goes without a kind", () => {
    const e = new StateEngine({ now: () => 9 });
    e.recordSimilarity({ a: "p", b: "q", distance: 1 });
    e.checkCycle("s", "a");
    e.resetCycleDetector("s");
    e.updateConfig({ maxDeltaRecords: 50 });
    assert.equal(e.generation, 4);
    assert.deepEqual(e.snapshot().deltaHistory.all(), []);
  });
});
