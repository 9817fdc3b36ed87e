import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isStateError } from "../errors.js";
import type { StateEvent } from "../events/event.js";
import { makeStep } from "../steps/step-record.js";
import { StateEngine } from "./engine.js";

const step = (sessionId: string, tool: string) =>
  makeStep({ sessionId, actor: "main_agent", decision: "execute_tool", tool, outcome: "success" });
const clause = (id: string, variable: string) => ({
  id,
  literals: [{ variable, negated: true }],
  source: "hard" as const,
  failureType: "x",
});
const json = (e: StateEngine): string => JSON.stringify(e.exportDocument());

function filled(): { e: StateEngine; events: StateEvent[]; clock: { t: number } } {
  const clock = { t: 1 };
  const e = new StateEngine({ now: () => clock.t++ });
  const events: StateEvent[] = [];
  const keep = (ev: StateEvent | undefined) => ev !== undefined && events.push(JSON.parse(JSON.stringify(ev)) as StateEvent);
  for (const [id, v] of [
    ["k1", "tool:a"],
    ["k2", "tool:b"],
    ["k3", "tool:c"],
  ] as const)
    keep(e.addClause(clause(id, v)).event);
  for (const tool of ["a", "b", "c", "d"]) keep(e.recordStep(step("s", tool)).event);
  keep(e.recordSimilarity({ a: "x", b: "y", distance: 1 }).event);
  keep(e.recordSimilarity({ a: "x", b: "z", distance: 2 }).event);
  return { e, events, clock };
}

describe("configuration updates", () => {
  it("lowering a limit evicts by the index's own rule in the same generation, and replay agrees", () => {
    const { e, events } = filled();
    const before = e.generation;
    const m = e.updateConfig({ maxClauses: 1, maxStepsPerSession: 2 });
    assert.equal(m.generation, before + 1, "one generation for the change");
    assert.equal(m.event?.type, "config_updated", "journaled as a config event");
    assert.equal(m.result.maxClauses, 1, "result is the configuration in force");
    const s = e.snapshot();
    assert.deepEqual([...s.state.clauses.clauses.keys()], ["k3"], "least recently used clauses evicted");
    assert.deepEqual(
      s.steps.history("s").map((x) => x.tool),
      ["c", "d"],
      "oldest steps dropped",
    );
    assert.equal(s.modGeneration("clause", "k1"), 0, "an evicted clause reads as absent");
    events.push(JSON.parse(JSON.stringify(m.event)) as StateEvent);
    assert.equal(json(StateEngine.fromEvents(events)), json(e), "replaying the journal gives the same state, limits included");
  });

  it("refuses a similarity cap below the stored pairs and changes nothing", () => {
    const { e } = filled();
    const before = json(e);
    assert.throws(
      () => e.updateConfig({ maxSimilarityPairs: 1, maxClauses: 1 }),
      (err) => isStateError(err, "CAPACITY_BELOW_CONTENT") && err.field === "maxSimilarityPairs",
    );
    assert.equal(json(e), before, "nothing changed");
    assert.equal(e.updateConfig({ maxSimilarityPairs: 2 }).result.maxSimilarityPairs, 2, "a cap equal to the pair count is fine");
  });

  it("refuses out-of-range values with INVALID_CONFIG naming the field, and changes nothing", () => {
    const { e } = filled();
    const before = json(e);
    assert.throws(
      () => e.updateConfig({ maxHistoryEntries: 0 }),
      (err) => isStateError(err, "INVALID_CONFIG") && err.field === "maxHistoryEntries",
    );
    assert.throws(
      () => e.updateConfig({ circuitBreakerThresholds: { Grep: -1 } }),
      (err) => isStateError(err, "INVALID_CONFIG") && err.field === "circuitBreakerThresholds.Grep",
    );
    assert.equal(json(e), before, "nothing changed");
  });

  it("checkpoints, restores, forks and documents carry the limits", () => {
    const { e } = filled();
    const cp = e.checkpoint();
    e.updateConfig({ maxClauses: 500, snapshotRingSize: 3 });
    assert.equal(e.fork().config.maxClauses, 500, "a fork starts with the source's limits");
    const doc = JSON.parse(JSON.stringify(e.exportDocument()));
    assert.equal(StateEngine.fromDocument(doc).config.maxClauses, 500, "the document carries the limits");
    e.restore(cp);
    assert.equal(e.config.maxClauses, 1000, "restoring a checkpoint brings back its limits");
    const { config: _, ...older } = doc;
    assert.equal(
      StateEngine.fromDocument(older, { config: { maxClauses: 9 } }).config.maxClauses,
      9,
      "a document without limits takes the reader's",
    );
  });

  it("keeps only as many readable generations as the new snapshot retention", () => {
    const { e } = filled();
    const g = e.generation;
    e.updateConfig({ snapshotRingSize: 2 });
    assert.ok(e.snapshotAt(g) !== undefined, "the previous generation is still readable");
    assert.throws(
      () => e.snapshotAt(g - 1),
      (err) => isStateError(err, "SNAPSHOT_NOT_FOUND"),
      "older ones left the ring",
    );
  });
});
