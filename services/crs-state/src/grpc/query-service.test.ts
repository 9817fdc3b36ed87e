import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { ConstraintType, ProofStatus, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

const entry = (nodeId: string, proof: bigint, st: ProofStatus) => ({
  nodeId,
  value: { proof, disproof: 10n, status: st, source: SignalSource.HARD },
});

describe("QueryService through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId: "q" });
    const hard = SignalSource.HARD;
    await s.state.apply({
      projectId: "q",
      delta: {
        kind: {
          case: "composite",
          value: {
            deltas: [
              {
                source: hard,
                kind: {
                  case: "proof",
                  value: {
                    entries: [
                      entry("a", 0n, ProofStatus.PROVEN),
                      entry("b", 18446744073709551615n, ProofStatus.DISPROVEN),
                      entry("c", 7n, ProofStatus.EXPANDED),
                    ],
                  },
                },
              },
              {
                source: hard,
                kind: {
                  case: "constraint",
                  value: { add: [{ id: "k1", type: ConstraintType.ORDERING, nodes: ["b", "c"], active: true }] },
                },
              },
              {
                source: hard,
                kind: {
                  case: "dependency",
                  value: {
                    addEdges: [
                      { fromId: "c", toId: "b" },
                      { fromId: "a", toId: "c" },
                    ],
                  },
                },
              },
              {
                source: hard,
                kind: {
                  case: "similarity",
                  value: {
                    updates: [
                      { a: "c", b: "a", distance: 1 },
                      { a: "c", b: "b", distance: 2 },
                    ],
                  },
                },
              },
              {
                source: hard,
                kind: {
                  case: "streaming",
                  value: {
                    increments: [
                      { item: "c", increment: 3n },
                      { item: "a", increment: 1n },
                    ],
                  },
                },
              },
              { source: hard, kind: { case: "history", value: { entries: [{ id: "h1", nodeId: "c", action: "expand", result: "ok" }] } } },
            ],
          },
        },
      },
    });
  });
  after(async () => {
    await s.stop();
  });

  it("finds nodes by status, proof range and constraint, each in its documented order", async () => {
    assert.deepEqual((await s.queries.findProvenNodes({ projectId: "q" })).nodeIds, ["a"]);
    assert.deepEqual((await s.queries.findDisprovenNodes({ projectId: "q" })).nodeIds, ["b"]);
    assert.deepEqual((await s.queries.findUnexploredNodes({ projectId: "q" })).nodeIds, ["c"]);
    const range = await s.queries.findByProofRange({ projectId: "q", minProof: 0n, maxProof: 10n });
    assert.deepEqual(
      range.entries.map((e) => e.nodeId),
      ["a", "c"],
      "by proof ascending",
    );
    assert.deepEqual((await s.queries.findConstrainedNodes({ projectId: "q", type: ConstraintType.ORDERING })).nodeIds, ["b", "c"]);
    assert.deepEqual(
      (await s.queries.findViolatedConstraints({ projectId: "q" })).constraints.map((c) => c.id),
      ["k1"],
    );
    await expectError(
      s.queries.findByProofRange({ projectId: "q", minProof: 5n, maxProof: 1n }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "max_proof",
    );
  });

  it("walks dependencies and similarity, and ranks hot nodes and recent decisions", async () => {
    assert.deepEqual((await s.queries.findDependencyChain({ projectId: "q", fromId: "a", toId: "b" })).path, ["a", "c", "b"]);
    assert.deepEqual(
      (await s.queries.findDependencyChain({ projectId: "q", fromId: "b", toId: "a" })).path,
      [],
      "no path is an empty path",
    );
    assert.deepEqual((await s.queries.findAffectedByNode({ projectId: "q", nodeId: "b" })).nodeIds, ["a", "c"]);
    const similar = await s.queries.findSimilarWithProofStatus({ projectId: "q", nodeId: "c", status: ProofStatus.DISPROVEN, k: 3 });
    assert.deepEqual(
      similar.nodes.map((n) => n.nodeId),
      ["b"],
    );
    const hot = await s.queries.findHotNodes({ projectId: "q", limit: 2 });
    assert.deepEqual(
      hot.nodes.map((n) => [n.nodeId, n.frequency]),
      [
        ["c", 3n],
        ["a", 1n],
      ],
    );
    assert.deepEqual(
      (await s.queries.findRecentDecisions({ projectId: "q", limit: 5 })).entries.map((e) => e.id),
      ["h1"],
    );
  });

  it("summarises one node and answers NOT_FOUND for a node no index knows", async () => {
    const stats = await s.queries.getNodeStats({ projectId: "q", nodeId: "c" });
    assert.equal(stats.stats?.hasProof, true);
    assert.deepEqual(stats.stats?.constraintIds, ["k1"]);
    assert.equal(stats.stats?.nearestNeighbor, "a");
    assert.equal(stats.stats?.accessFrequency, 3n);
    await expectError(s.queries.getNodeStats({ projectId: "q", nodeId: "ghost" }), status.NOT_FOUND, "NODE_NOT_FOUND");
  });
});
