import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StateEngine } from "../engine/engine.js";

describe("delta history", () => {
  function engine(): StateEngine {
    const e = new StateEngine({ config: { maxDeltaRecords: 4 } });
    e.apply({ kind: "similarity", source: "soft", updates: [{ a: "a", b: "b", distance: 1 }] }); // 1
    e.apply({ kind: "dependency", source: "hard", add: [{ from: "b", to: "c" }], remove: [] }); // 2
    e.apply({
      kind: "proof",
      source: "soft",
      updates: [{ nodeId: "x", proof: 1n, disproof: 1n, status: "expanded", source: "soft", updatedAt: 1 }],
    }); // 3
    e.apply({ kind: "composite", deltas: [{ kind: "similarity", source: "soft", updates: [{ a: "c", b: "d", distance: 2 }] }] }); // 4
    e.apply({
      kind: "proof",
      source: "soft",
      updates: [{ nodeId: "d", proof: 1n, disproof: 1n, status: "expanded", source: "soft", updatedAt: 1 }],
    }); // 5
    return e;
  }

  it("records similarity deltas and composites containing them", () => {
    const h = engine().snapshot().deltaHistory;
    assert.equal(h.byGeneration(4)?.kind, "composite", "composite with similarity recorded");
    assert.deepEqual(h.byGeneration(4)?.affectedNodes, ["c", "d"], "affected nodes sorted");
  });

  it("is bounded and queried by range, node and generation", () => {
    const h = engine().snapshot().deltaHistory;
    assert.equal(h.size(), 4, "oldest evicted");
    assert.equal(h.byGeneration(1), undefined, "evicted generation gone");
    assert.deepEqual(
      h.range(2, 4).map((r) => r.generation),
      [3, 4],
      "from < g <= to",
    );
    assert.deepEqual(
      h.byNode("d").map((r) => r.id),
      ["delta_4", "delta_5"],
      "by node ascending",
    );
  });

  it("explains a node as its causal chain, not just its own records", () => {
    const h = engine().snapshot().deltaHistory;
    assert.deepEqual(
      h.explain("d").map((r) => r.generation),
      [2, 4, 5],
      "d <- (c,d) similarity <- (b,c) edge",
    );
    assert.deepEqual(
      h.explain("x").map((r) => r.generation),
      [3],
      "independent node",
    );
  });
});
