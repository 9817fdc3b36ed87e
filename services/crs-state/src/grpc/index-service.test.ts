import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { ConstraintType, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

describe("IndexService through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId: "ix" });
    const hard = SignalSource.HARD;
    const apply = (kind: object) => s.state.apply({ projectId: "ix", delta: { source: hard, kind } as never });
    await apply({
      case: "constraint",
      value: {
        add: [
          { id: "k2", type: ConstraintType.RESOURCE, nodes: ["x"], active: true },
          { id: "k1", type: ConstraintType.ORDERING, nodes: ["x", "y"], active: true },
        ],
      },
    });
    await apply({
      case: "dependency",
      value: {
        addEdges: [
          { fromId: "x", toId: "y" },
          { fromId: "z", toId: "y" },
        ],
      },
    });
    await apply({
      case: "history",
      value: {
        entries: [
          { id: "h1", nodeId: "x", action: "a1" },
          { id: "h2", nodeId: "y", action: "a2", source: SignalSource.SOFT },
          { id: "h3", nodeId: "x", action: "a3" },
        ],
      },
    });
    await apply({ case: "streaming", value: { increments: [{ item: "x", increment: 4n }], observed: ["q"] } });
    await apply({
      case: "analytics",
      value: { record: { queryType: "hotspots", queryTimeUnixMs: 1000n, resultCount: 1n, results: ["x"] } },
    });
  });
  after(async () => {
    await s.stop();
  });

  it("reads constraints by id, type and node, and answers NOT_FOUND for an absent one", async () => {
    assert.equal((await s.indexes.getConstraint({ projectId: "ix", constraintId: "k1" })).constraint?.type, ConstraintType.ORDERING);
    await expectError(s.indexes.getConstraint({ projectId: "ix", constraintId: "k9" }), status.NOT_FOUND, "CONSTRAINT_NOT_FOUND");
    assert.deepEqual(
      (await s.indexes.listConstraints({ projectId: "ix" })).constraints.map((c) => c.id),
      ["k1", "k2"],
    );
    assert.deepEqual(
      (await s.indexes.listConstraints({ projectId: "ix", nodeId: "y" })).constraints.map((c) => c.id),
      ["k1"],
    );
    assert.deepEqual(
      (await s.indexes.listConstraints({ projectId: "ix", type: ConstraintType.RESOURCE })).constraints.map((c) => c.id),
      ["k2"],
    );
  });

  it("lists dependency edges and a node's direct neighbours with counts", async () => {
    const edges = await s.indexes.listDependencyEdges({ projectId: "ix" });
    assert.deepEqual(
      edges.edges.map((e) => `${e.fromId}>${e.toId}`),
      ["x>y", "z>y"],
    );
    const deps = await s.indexes.getNodeDependencies({ projectId: "ix", nodeId: "y" });
    assert.deepEqual(deps.dependedBy, ["x", "z"]);
    assert.equal(deps.dependedByCount, 2n);
    assert.equal(deps.truncated, false);
  });

  it("lists history by node, source and recency, oldest first", async () => {
    assert.deepEqual(
      (await s.indexes.listHistoryEntries({ projectId: "ix", nodeId: "x" })).entries.map((e) => e.id),
      ["h1", "h3"],
    );
    assert.deepEqual(
      (await s.indexes.listHistoryEntries({ projectId: "ix", source: SignalSource.SOFT })).entries.map((e) => e.id),
      ["h2"],
    );
    assert.deepEqual(
      (await s.indexes.listHistoryEntries({ projectId: "ix", recent: 2 })).entries.map((e) => e.id),
      ["h2", "h3"],
    );
  });

  it("estimates streaming counts with their error bounds and lists analytics newest first", async () => {
    const est = await s.indexes.getStreamingEstimates({ projectId: "ix", items: ["x", "never"] });
    assert.deepEqual(
      est.estimates.map((e) => [e.item, e.estimate]),
      [
        ["x", 4n],
        ["never", 0n],
      ],
    );
    assert.ok((est.summary?.total ?? 0n) >= 4n, "the total counts every increment");
    assert.ok((est.summary?.cardinalityStandardError ?? 0) > 0, "the stated error bound");
    await expectError(
      s.indexes.getStreamingEstimates({ projectId: "ix", items: [] }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "items",
    );
    const records = await s.indexes.listAnalyticsRecords({ projectId: "ix", queryType: "hotspots" });
    assert.deepEqual(
      records.records.map((r) => r.results),
      [["x"]],
    );
  });
});
