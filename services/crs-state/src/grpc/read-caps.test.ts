import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ConstraintType, ProofStatus, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { startTestServer, type TestServer } from "./test-support.js";

const HARD = SignalSource.HARD;
const INF = 18446744073709551615n;
/** More than every documented cap of 1000, so each capped list must be cut. */
const N = 1005;
const many = Array.from({ length: N }, (_, i) => `n${String(i).padStart(5, "0")}`);
const proofDelta = (nodeId: string, proof: bigint, status: ProofStatus) => ({
  source: HARD,
  kind: { case: "proof" as const, value: { entries: [{ nodeId, value: { proof, disproof: 5n, status, source: HARD } }] } },
});

describe("responses that grow with the state, through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId: "caps" });
    await s.state.apply({ projectId: "caps", delta: proofDelta("root", 3n, ProofStatus.EXPANDED) });
    await s.state.apply({
      projectId: "caps",
      delta: {
        source: HARD,
        kind: { case: "dependency", value: { addEdges: many.map((fromId) => ({ fromId, toId: "root", source: HARD })) } },
      },
    });
    await s.state.apply({
      projectId: "caps",
      delta: {
        source: HARD,
        kind: {
          case: "constraint",
          value: { add: many.map((id) => ({ id, type: ConstraintType.ORDERING, nodes: ["root", id], active: true, source: HARD })) },
        },
      },
    });
  });
  after(async () => {
    await s.stop();
  });

  it("cuts GetNodeStats' constraint ids at 1000 and says so, keeping the full count", async () => {
    const stats = (await s.queries.getNodeStats({ projectId: "caps", nodeId: "root" })).stats;
    assert.equal(stats?.constraintCount, N, "the count covers every constraint");
    assert.deepEqual(stats?.constraintIds, many.slice(0, 1000), "the first 1000 ids, byte-wise");
    assert.equal(stats?.truncated, true);
    const leaf = (await s.queries.getNodeStats({ projectId: "caps", nodeId: "n00003" })).stats;
    assert.deepEqual([leaf?.constraintIds, leaf?.truncated], [["n00003"], false], "an uncut list says so");
  });

  it("cuts GetNodeDependencies and ExplainNode lists at 1000 with truncated set and the full counts", async () => {
    const deps = await s.indexes.getNodeDependencies({ projectId: "caps", nodeId: "root" });
    assert.deepEqual(deps.dependedBy, many.slice(0, 1000));
    assert.deepEqual([deps.dependedByCount, deps.truncated], [BigInt(N), true]);
    const explained = await s.history.explainNode({ projectId: "caps", nodeId: "root" });
    assert.deepEqual(explained.dependedBy, many.slice(0, 1000));
    assert.deepEqual(
      explained.constraints.map((c) => c.id),
      many.slice(0, 1000),
    );
    assert.equal(explained.truncated, true);
    const before = await s.history.explainNode({ projectId: "caps", nodeId: "root", atGeneration: 1n });
    assert.deepEqual([before.dependedBy, before.truncated, before.header?.generation], [[], false, 1n], "as it was at generation 1");
  });

  it("lists at most 1000 entries of a propagation that updates more, counting them all", async () => {
    await s.state.apply({ projectId: "caps", delta: proofDelta("root", INF, ProofStatus.DISPROVEN) });
    const r = await s.proofs.propagateDisproof({ projectId: "caps", nodeId: "root" });
    assert.equal(r.nodesUpdated, N);
    assert.deepEqual(
      r.updated.map((e) => e.nodeId),
      many.slice(0, 1000),
    );
    assert.equal(r.truncated, true);
  });
});
