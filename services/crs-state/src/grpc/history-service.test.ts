import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { ChangeKind, DeltaType } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import { ProofStatus, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

const proof = (nodeId: string) => ({
  source: SignalSource.SOFT,
  kind: {
    case: "proof" as const,
    value: { entries: [{ nodeId, value: { proof: 3n, disproof: 10n, status: ProofStatus.EXPANDED, source: SignalSource.SOFT } }] },
  },
});

describe("HistoryService through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId: "h" });
    await s.state.apply({ projectId: "h", delta: proof("a"), label: "planner", sessionId: "s1", metadata: { why: "test" } });
    await s.state.apply({ projectId: "h", delta: proof("b") });
    await s.state.apply({ projectId: "h", delta: proof("a") });
  });
  after(async () => {
    await s.stop();
  });

  it("records who applied each delta and serves changes by range, node and generation", async () => {
    const one = await s.history.getChange({ projectId: "h", generation: 1n });
    assert.equal(one.change?.kind, ChangeKind.DELTA_APPLIED);
    assert.equal(one.change?.deltaType, DeltaType.PROOF);
    assert.equal(one.change?.label, "planner", "the apply label is kept beside the source");
    assert.equal(one.change?.source, SignalSource.SOFT);
    assert.equal(one.change?.sessionId, "s1");
    assert.equal(one.change?.delta?.kind.case, "proof", "the delta itself");
    const range = await s.history.listChangesInRange({ projectId: "h", fromGeneration: 1n, summaryOnly: true });
    assert.deepEqual(
      range.changes.map((c) => c.generation),
      [2n, 3n],
    );
    assert.equal(range.changes[0]?.delta, undefined, "summaries only");
    const byNode = await s.history.listChangesByNode({ projectId: "h", nodeId: "a" });
    assert.deepEqual(
      byNode.changes.map((c) => c.generation),
      [1n, 3n],
    );
    await expectError(s.history.getChange({ projectId: "h", generation: 99n }), status.NOT_FOUND, "CHANGE_NOT_FOUND");
    await expectError(s.history.getChange({ projectId: "h", generation: 0n }), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "generation");
  });

  it("a to_generation past the largest safe integer reads through the current generation instead of being refused", async () => {
    const max = 2n ** 64n - 1n;
    const through = await s.history.listChangesInRange({ projectId: "h", fromGeneration: 1n, toGeneration: max });
    assert.deepEqual(
      through.changes.map((c) => c.generation),
      [2n, 3n],
    );
    assert.equal(through.header?.generation, 3n);
    const paged = await s.history.listChangesInRange({ projectId: "h", toGeneration: max, pageSize: 2 });
    const next = await s.history.listChangesInRange({ projectId: "h", toGeneration: max, pageSize: 2, pageToken: paged.nextPageToken });
    assert.deepEqual(
      [...paged.changes, ...next.changes].map((c) => c.generation),
      [1n, 2n, 3n],
      "the page token accepts the same huge bound",
    );
    const beyond = await s.history.listChangesInRange({ projectId: "h", fromGeneration: max, toGeneration: max });
    assert.deepEqual(beyond.changes, [], "no change lies above the largest bound");
    await expectError(
      s.history.listChangesInRange({ projectId: "h", fromGeneration: max, toGeneration: max - 1n }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "to_generation",
    );
    await expectError(
      s.history.listChangesInRange({ projectId: "h", fromGeneration: 3n, toGeneration: 2n }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "to_generation",
    );
  });

  it("explains a node with its entries and causal changes, capped by max_changes", async () => {
    const all = await s.history.explainNode({ projectId: "h", nodeId: "a" });
    assert.equal(all.proof?.nodeId, "a");
    assert.deepEqual(
      all.changes.map((c) => c.generation),
      [1n, 3n],
    );
    assert.equal(all.truncated, false);
    const cut = await s.history.explainNode({ projectId: "h", nodeId: "a", maxChanges: 1 });
    assert.deepEqual(
      cut.changes.map((c) => c.generation),
      [3n],
      "the newest is kept",
    );
    assert.equal(cut.truncated, true);
    await expectError(
      s.history.explainNode({ projectId: "h", nodeId: "a", maxChanges: 5000 }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "max_changes",
    );
  });

  it("reports the retained range of the history", async () => {
    const stats = await s.history.getHistoryStats({ projectId: "h" });
    assert.deepEqual([stats.size, stats.oldestChangeGeneration, stats.newestChangeGeneration, stats.maxRecords], [3n, 1n, 3n, 1000n]);
  });
});
