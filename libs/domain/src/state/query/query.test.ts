import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isStateError } from "../errors.js";
import { StateEngine } from "../engine/engine.js";
import { PROOF_INFINITY } from "../proof/proof-number.js";
import type { ProofStatus, SignalSource } from "../signals.js";

function engine(): StateEngine {
  const e = new StateEngine();
  const entry = (nodeId: string, status: ProofStatus, proof: bigint) => ({
    nodeId,
    proof,
    disproof: 1n,
    status,
    source: "hard" as SignalSource,
    updatedAt: 1,
  });
  e.apply({
    kind: "proof",
    source: "hard",
    updates: [
      entry("b", "proven", 0n),
      entry("a", "proven", 0n),
      entry("c", "disproven", PROOF_INFINITY),
      entry("d", "expanded", 7n),
      entry("e", "unknown", 7n),
    ],
  });
  e.apply({
    kind: "constraint",
    source: "soft",
    add: [
      { id: "k2", type: "ordering", nodes: ["c", "d"], expression: "", active: true, source: "soft", createdAt: 1 },
      { id: "k1", type: "resource", nodes: ["z"], expression: "", active: true, source: "soft", createdAt: 1 },
      { id: "k3", type: "ordering", nodes: ["c"], expression: "", active: false, source: "soft", createdAt: 1 },
    ],
    remove: [],
    update: [],
  });
  e.apply({
    kind: "dependency",
    source: "hard",
    add: [
      { from: "a", to: "b" },
      { from: "b", to: "c" },
      { from: "a", to: "d" },
      { from: "d", to: "c" },
    ],
    remove: [],
  });
  return e;
}

describe("QueryAPI", () => {
  it("lists nodes by status, sorted byte-wise", () => {
    const q = engine().snapshot().query();
    assert.deepEqual(q.findProvenNodes(), ["a", "b"], "proven");
    assert.deepEqual(q.findDisprovenNodes(), ["c"], "disproven");
    assert.deepEqual(q.findUnexploredNodes(), ["d", "e"], "unknown and expanded");
    assert.deepEqual(q.findByProofRange(0n, 7n), ["a", "b", "d", "e"], "by proof then id");
  });

  it("answers constraint queries; inactive constraints are not violated", () => {
    const q = engine().snapshot().query();
    assert.deepEqual(q.findConstrainedNodes("ordering"), ["c", "d"], "ordering nodes");
    assert.deepEqual(q.findConstrainedNodes("unknown"), ["c", "d", "z"], "unknown means all");
    assert.deepEqual(
      q.findViolatedConstraints().map((c) => c.id),
      ["k2"],
      "active with a disproven node",
    );
  });

  it("walks dependencies deterministically", () => {
    const q = engine().snapshot().query();
    assert.deepEqual(q.findDependencyChain("a", "c"), ["a", "b", "c"], "shortest, byte-wise first");
    assert.deepEqual(q.findDependencyChain("c", "a"), [], "no path");
    assert.deepEqual(q.findDependencyChain("q", "q"), ["q"], "trivial path");
    assert.deepEqual(q.findAffectedByNode("c"), ["a", "b", "d"], "transitive dependents");
  });

  it("finds similar nodes with a status among all neighbours, not only the first 3k", () => {
    const e = engine();
    for (const [n, d] of [
      ["x1", 0.1],
      ["x2", 0.2],
      ["x3", 0.3],
      ["x4", 0.4],
      ["b", 0.9],
    ] as const)
      e.recordSimilarity({ a: "a", b: n, distance: d });
    assert.deepEqual(
      e
        .snapshot()
        .query()
        .findSimilarWithProofStatus("a", "proven", 1)
        .map((n) => n.id),
      ["b"],
      "found beyond 3k neighbours",
    );
  });

  it("finds hot nodes from every index and recent decisions over the whole history", () => {
    const e = engine();
    e.apply({
      kind: "streaming",
      source: "soft",
      increments: [
        { item: "z", count: 5 },
        { item: "a", count: 2 },
        { item: "b", count: 2 },
      ],
      observed: [],
    });
    const entries = Array.from({ length: 10 }, (_, i) => ({
      id: `h${i}`,
      nodeId: "a",
      action: "x",
      result: "r",
      source: (i === 0 ? "hard" : "soft") as SignalSource,
      timestamp: i,
      metadata: {},
    }));
    e.apply({ kind: "history", source: "hard", entries });
    const q = e.snapshot().query();
    assert.deepEqual(
      q.findHotNodes(3),
      [
        { nodeId: "z", frequency: 5 },
        { nodeId: "a", frequency: 2 },
        { nodeId: "b", frequency: 2 },
      ],
      "z is known only from a constraint",
    );
    assert.deepEqual(
      q.findRecentDecisions(1, "hard").map((h) => h.id),
      ["h0"],
      "hard entry older than the last 3n",
    );
    assert.deepEqual(
      q.findRecentDecisions(2).map((h) => h.id),
      ["h8", "h9"],
      "oldest first",
    );
  });

  it("summarises a node and returns nothing for unknown nodes", () => {
    const q = engine().snapshot().query();
    const s = q.nodeStats("d");
    assert.deepEqual(
      [s?.proof?.proof, s?.constraintIds, s?.dependsOnCount, s?.dependedByCount, s?.hasCycle],
      [7n, ["k2"], 1, 1, false],
      "node d",
    );
    assert.equal(q.nodeStats("nobody"), undefined, "unknown node");
    assert.throws(
      () => engine().snapshot().proof.require("nobody"),
      (err: unknown) => isStateError(err, "NODE_NOT_FOUND") && err.field === "nodeId",
      "require of a missing node",
    );
  });
});
