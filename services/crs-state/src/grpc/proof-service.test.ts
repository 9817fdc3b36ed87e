import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { ProofStatus, ProofUpdateType, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

const INF = 18446744073709551615n;

describe("ProofService through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId: "proofs" });
  });
  after(async () => {
    await s.stop();
  });

  it("updates proof numbers, reads them in batches and lists them by status", async () => {
    const up = await s.proofs.updateProofNumber({
      projectId: "proofs",
      update: { nodeId: "a", type: ProofUpdateType.INCREMENT, delta: 5n, source: SignalSource.SOFT },
    });
    assert.equal(up.value?.proof, 15n, "10 + 5");
    assert.equal(up.value?.status, ProofStatus.EXPANDED);
    assert.equal(up.value?.modGeneration, up.header?.generation, "the entry's mod generation is this change");
    await s.proofs.updateProofNumber({
      projectId: "proofs",
      update: { nodeId: "b", type: ProofUpdateType.DISPROVEN, source: SignalSource.HARD },
    });
    const got = await s.proofs.getProofStatus({ projectId: "proofs", nodeIds: ["a", "zz", "b"] });
    assert.deepEqual(
      got.entries.map((e) => e.nodeId),
      ["a", "b"],
    );
    assert.deepEqual(got.missingNodeIds, ["zz"], "absent nodes are listed, not an error");
    const disproven = await s.proofs.listProofNumbers({ projectId: "proofs", statuses: [ProofStatus.DISPROVEN] });
    assert.deepEqual(
      disproven.entries.map((e) => [e.nodeId, e.value?.proof]),
      [["b", INF]],
    );
  });

  it("refuses a soft disproof as INVALID_ARGUMENT and an unspecified update type naming the field", async () => {
    await expectError(
      s.proofs.updateProofNumber({
        projectId: "proofs",
        update: { nodeId: "c", type: ProofUpdateType.DISPROVEN, source: SignalSource.SOFT },
      }),
      status.INVALID_ARGUMENT,
      "HARD_SOFT_BOUNDARY",
    );
    await expectError(
      s.proofs.updateProofNumber({ projectId: "proofs", update: { nodeId: "c", source: SignalSource.SOFT } }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "update.type",
    );
    await expectError(
      s.proofs.getProofStatus({ projectId: "proofs", nodeIds: [] }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "node_ids",
    );
    await expectError(
      s.proofs.getProofStatus({ projectId: "proofs", nodeIds: Array.from({ length: 1001 }, (_, i) => `n${i}`) }),
      status.INVALID_ARGUMENT,
      "LIMIT_EXCEEDED",
      "node_ids",
    );
  });

  it("fires the circuit breaker from the execution count and from a disproven tool node", async () => {
    const step = { sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "Grep", outcome: "success" };
    for (let i = 0; i < 5; i++) await s.steps.recordStep({ projectId: "proofs", step });
    const fired = await s.proofs.checkCircuitBreaker({ projectId: "proofs", sessionId: "s", tool: "Grep" });
    assert.equal(fired.shouldFire, true);
    assert.equal(fired.executionCount, 5n);
    assert.equal(fired.threshold, 5n, "Grep's default threshold");
    assert.equal(fired.nodeId, "session:s:tool:Grep");
    const other = await s.proofs.checkCircuitBreaker({ projectId: "proofs", sessionId: "s", tool: "Read" });
    assert.equal(other.shouldFire, false);
    await expectError(
      s.proofs.checkCircuitBreaker({ projectId: "proofs", sessionId: "s", tool: "" }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "tool",
    );
  });

  it("judges the circuit breaker at a past generation from that generation's steps and thresholds", async () => {
    await s.state.createProject({ projectId: "breaker-past" });
    const step = { sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "Read", outcome: "success" };
    for (let i = 0; i < 2; i++) await s.steps.recordStep({ projectId: "breaker-past", step });
    await s.state.updateProjectConfig({
      projectId: "breaker-past",
      config: { circuitBreakerThresholds: { Read: 9 } },
      updateMask: { paths: ["circuit_breaker_thresholds"] },
    });
    const at = async (atGeneration: bigint) => {
      const r = await s.proofs.checkCircuitBreaker({ projectId: "breaker-past", sessionId: "s", tool: "Read", atGeneration });
      return [r.shouldFire, r.executionCount, r.threshold];
    };
    assert.deepEqual(await at(1n), [false, 1n, 2n], "one call, under the threshold of then");
    assert.deepEqual(await at(2n), [true, 2n, 2n], "two calls fired the threshold of then");
    assert.deepEqual(await at(3n), [false, 2n, 9n], "the raised threshold holds from its generation on");
  });

  it("propagates a disproof to dependents once each, as one change", async () => {
    await s.state.apply({
      projectId: "proofs",
      delta: {
        source: SignalSource.HARD,
        kind: {
          case: "dependency",
          value: {
            addEdges: [
              { fromId: "p1", toId: "leaf" },
              { fromId: "p2", toId: "leaf" },
            ],
          },
        },
      },
    });
    const before = (await s.state.getGeneration({ projectId: "proofs" })).header?.generation ?? 0n;
    const r = await s.proofs.propagateDisproof({ projectId: "proofs", nodeId: "leaf" });
    assert.equal(r.nodesUpdated, 2);
    assert.deepEqual(
      r.updated.map((e) => e.nodeId),
      ["p1", "p2"],
      "breadth first, byte-wise",
    );
    assert.equal(r.truncated, false);
    assert.equal(r.header?.generation, before + 1n, "one change");
  });
  it("refuses a delta computed before a proof update of its node as DELTA_CONFLICT, not only one computed before a delta", async () => {
    await s.state.createProject({ projectId: "basis" });
    const entry = (nodeId: string) => ({
      nodeId,
      value: { proof: 3n, disproof: 3n, status: ProofStatus.EXPANDED, source: SignalSource.SOFT },
    });
    const apply = (nodeId: string, snapshotGeneration: bigint) =>
      s.state.apply({
        projectId: "basis",
        delta: { source: SignalSource.SOFT, kind: { case: "proof", value: { entries: [entry(nodeId)] } } },
        snapshotGeneration,
      });
    const basis = (await s.state.getGeneration({ projectId: "basis" })).header?.generation ?? 0n;
    await s.proofs.updateProofNumber({
      projectId: "basis",
      update: { nodeId: "read", type: ProofUpdateType.INCREMENT, delta: 7n, source: SignalSource.SOFT },
    });
    await expectError(apply("read", basis), status.ABORTED, "DELTA_CONFLICT", "delta");
    const kept = await s.proofs.getProofStatus({ projectId: "basis", nodeIds: ["read"] });
    assert.equal(kept.entries[0]?.value?.proof, 17n, "the update made after the snapshot is not overwritten");
    const other = await apply("write", basis);
    assert.equal(other.header?.generation, basis + 2n, "a node nobody changed since the snapshot still applies");
  });
});
