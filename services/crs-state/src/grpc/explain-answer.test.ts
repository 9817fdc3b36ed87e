import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { toBinary } from "@bufbuild/protobuf";
import { ExplainNodeResponseSchema } from "@crs/contracts/gen/crs/state/v1/history_pb";
import { ProofStatus, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { startTestServer, type TestServer } from "./test-support.js";

const LIMIT = 16 * 1024;
const HARD = SignalSource.HARD;
const SOFT = SignalSource.SOFT;
const long = (name: string) => `${name}-`.padEnd(200, "x");
/** 40 dependencies of the hub, byte-wise: about 8 KiB of ids. */
const deps = Array.from({ length: 40 }, (_, i) => long(`dep-${String(i).padStart(2, "0")}`)).sort();

describe("an ExplainNode answer whose lists add up past the message limit (GRPC_MAX_MESSAGE_BYTES 16 KiB)", () => {
  let s: TestServer;
  const applied: bigint[] = [];
  before(async () => {
    s = await startTestServer({ env: { GRPC_MAX_MESSAGE_BYTES: String(LIMIT) } });
    await s.state.createProject({ projectId: "x" });
    // Each change fits a response alone (about 6 KiB and 1 KiB as records); together they do not.
    for (let d = 0; d < 40; d += 10) {
      const addEdges = deps.slice(d, d + 10).map((toId) => ({ fromId: "hub", toId, source: HARD }));
      const r = await s.state.apply({ projectId: "x", delta: { source: HARD, kind: { case: "dependency", value: { addEdges } } } });
      applied.push(r.header?.generation ?? 0n);
    }
    for (let i = 0; i < 10; i++) {
      const nodes = ["hub", ...[1, 2, 3, 4].map((j) => long(`p${i}-${j}`))];
      const entries = nodes.map((nodeId) => ({ nodeId, value: { proof: 5n, disproof: 5n, status: ProofStatus.EXPANDED, source: SOFT } }));
      const r = await s.state.apply({ projectId: "x", delta: { source: SOFT, kind: { case: "proof", value: { entries } } } });
      applied.push(r.header?.generation ?? 0n);
    }
  });
  after(async () => {
    await s.stop();
  });

  it("stays under the limit by cutting lists to their byte shares, and says what it cut, instead of failing RESOURCE_EXHAUSTED", async () => {
    const answer = await s.history.explainNode({ projectId: "x", nodeId: "hub" });
    assert.ok(toBinary(ExplainNodeResponseSchema, answer).byteLength < LIMIT, "the answer fits the limit");
    assert.equal(answer.truncated, true);
    assert.equal(answer.sizeLimited, true, "bytes cut it, not a count");
    // The edges: the first byte-wise kept, the rest counted.
    assert.ok(answer.dependsOn.length > 0 && answer.dependsOn.length < deps.length);
    assert.deepEqual(answer.dependsOn, deps.slice(0, answer.dependsOn.length));
    assert.equal(answer.omitted?.dependsOn, deps.length - answer.dependsOn.length);
    // The causal chain: every change touched the hub; the newest kept, the oldest counted.
    const kept = answer.changes.map((c) => c.generation);
    assert.ok(kept.length > 0 && kept.length < applied.length);
    assert.deepEqual(kept, applied.slice(applied.length - kept.length), "the newest changes, ascending");
    assert.equal(answer.omitted?.changes, applied.length - kept.length);
    assert.ok(
      answer.changes.every((c) => c.affectedNodes.length === 5),
      "a summary kept is whole",
    );
    assert.deepEqual([answer.omitted?.constraints, answer.omitted?.dependedBy, answer.omitted?.history], [0, 0, 0]);
  });

  it("cuts nothing and says so when the lists fit", async () => {
    const answer = await s.history.explainNode({ projectId: "x", nodeId: deps[0] as string });
    assert.deepEqual(answer.dependedBy, ["hub"]);
    assert.deepEqual([answer.truncated, answer.sizeLimited, answer.omitted?.dependedBy, answer.omitted?.changes], [false, false, 0, 0]);
  });
});
