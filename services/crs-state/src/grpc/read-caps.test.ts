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

  it("cuts a FindDependencyChain path at 1000 nodes, says so, and continues from its last node", async () => {
    const chain = Array.from({ length: N + 1 }, (_, i) => `c${String(i).padStart(5, "0")}`);
    await s.state.createProject({ projectId: "chain" });
    const addEdges = chain.slice(1).map((toId, i) => ({ fromId: chain[i] as string, toId, source: HARD }));
    await s.state.apply({ projectId: "chain", delta: { source: HARD, kind: { case: "dependency", value: { addEdges } } } });
    const end = chain.at(-1) as string;
    const cut = await s.queries.findDependencyChain({ projectId: "chain", fromId: "c00000", toId: end });
    assert.deepEqual(cut.path, chain.slice(0, 1000));
    assert.deepEqual([cut.truncated, cut.pathLength], [true, BigInt(N + 1)]);
    const rest = await s.queries.findDependencyChain({ projectId: "chain", fromId: cut.path.at(-1) as string, toId: end });
    assert.deepEqual(rest.path, chain.slice(999), "the rest of the path, from the last node listed");
    assert.deepEqual([rest.truncated, rest.pathLength], [false, BigInt(N + 1 - 999)]);
  });

  it("cuts the members of an AnalyzeSessionCycles component at 1000 and says so", async () => {
    await s.state.createProject({ projectId: "loop" });
    // Every tool once and back to the first: one cyclic component of N states.
    for (const tool of [...many, many[0] as string]) {
      await s.steps.recordStep({
        projectId: "loop",
        step: { sessionId: "s", actor: "main_agent", decision: "execute_tool", tool, outcome: "success" },
      });
    }
    const r = await s.cycles.analyzeSessionCycles({ projectId: "loop", sessionId: "s" });
    assert.deepEqual([r.cyclicSccs.length, r.largestSccSize, r.truncated], [1, N, true]);
    assert.equal(r.cyclicSccs[0]?.values.length, 1000);
    assert.equal(new Set(r.cyclicSccs[0]?.values).size, 1000, "1000 distinct members of the component");
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
