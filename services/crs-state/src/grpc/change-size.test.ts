import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { CHANGE_RESPONSE_RESERVE_BYTES } from "./change-size.js";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

const LIMIT = 16 * 1024;

/** An Apply of `edges` dependency edges between 200-character node ids: its record lists all 2 x `edges` ids again. */
function edgesDelta(edges: number) {
  const id = (side: string, i: number) => `${side}-${i}-`.padEnd(200, "x");
  const addEdges = Array.from({ length: edges }, (_, i) => ({ fromId: id("a", i), toId: id("b", i) }));
  return { source: SignalSource.HARD, kind: { case: "dependency" as const, value: { addEdges } } };
}

describe("a delta whose change record would pass the message limit (GRPC_MAX_MESSAGE_BYTES 16 KiB)", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ env: { GRPC_MAX_MESSAGE_BYTES: String(LIMIT) } });
    await s.state.createProject({ projectId: "big" });
  });
  after(async () => {
    await s.stop();
  });

  it("is refused at Apply as LIMIT_EXCEEDED naming delta, not acknowledged into a history no page can ever serve", async () => {
    // About 10 KiB of request, under the limit; its record carries the 50 ids again, about 20 KiB.
    const e = await expectError(
      s.state.apply({ projectId: "big", delta: edgesDelta(25) }),
      status.INVALID_ARGUMENT,
      "LIMIT_EXCEEDED",
      "delta",
    );
    assert.equal(errorDetailOf(e)?.metadata["limit"], String(LIMIT - CHANGE_RESPONSE_RESERVE_BYTES));
    const generation = await s.state.getGeneration({ projectId: "big" });
    assert.equal(generation.header?.generation, 0n, "nothing changed");
    await expectError(
      s.state.apply({ projectId: "big", delta: edgesDelta(25), validateOnly: true }),
      status.INVALID_ARGUMENT,
      "LIMIT_EXCEEDED",
      "delta",
    );
  });

  it("accepts a delta whose record fits, and serves it in full from the history", async () => {
    const applied = await s.state.apply({ projectId: "big", delta: edgesDelta(12) });
    assert.equal(applied.header?.generation, 1n);
    const page = await s.history.listChangesInRange({ projectId: "big" });
    assert.equal(page.changes.length, 1);
    assert.equal(page.changes[0]?.affectedNodes.length, 24);
    const change = await s.history.getChange({ projectId: "big", generation: 1n });
    assert.equal(change.change?.delta?.kind.case, "dependency");
  });
});

describe("a detected cycle whose change record would pass the message limit (GRPC_MAX_MESSAGE_BYTES 16 KiB)", () => {
  let s: TestServer;
  // About 1.3 KiB of record per state of the loop (its node id twice, its key once): 20 states pass 15 KiB, 5 do not.
  const key = (i: number) => `state-${i}-`.padEnd(400, "k");
  const feed = (sessionId: string, i: number) => s.cycles.checkCycle({ projectId: "loops", sessionId, stateKey: key(i) });
  before(async () => {
    s = await startTestServer({ env: { GRPC_MAX_MESSAGE_BYTES: String(LIMIT) } });
    await s.state.createProject({ projectId: "loops" });
  });
  after(async () => {
    await s.stop();
  });

  it("is refused as RESOURCE_EXHAUSTED / LIMIT_EXCEEDED naming state_key with nothing changed, not acknowledged into a history no answer can serve", async () => {
    for (let i = 0; i < 20; i++) await feed("long", i);
    const before = await s.history.getHistoryStats({ projectId: "loops" });
    const e = await expectError(feed("long", 0), status.RESOURCE_EXHAUSTED, "LIMIT_EXCEEDED", "state_key");
    assert.equal(errorDetailOf(e)?.metadata["limit"], String(LIMIT - CHANGE_RESPONSE_RESERVE_BYTES));
    const after = await s.history.getHistoryStats({ projectId: "loops" });
    assert.equal(after.header?.generation, before.header?.generation, "the generation did not move");
    assert.equal(after.size, before.size, "no change record was written");
    const stats = await s.cycles.getCycleDetectorStats({ projectId: "loops", sessionId: "long" });
    assert.equal(stats.cyclesDetected, 0n, "the detector counted no detection");
    assert.equal(stats.windowSize, 20, "the detector's window is as it was");
    const proofs = await s.proofs.getProofStatus({ projectId: "loops", nodeIds: [`session:long:state:${key(0)}`] });
    assert.equal(proofs.entries.length, 0, "no state of the loop was disproven");
  });

  it("detects a loop whose record fits, and serves that record in full", async () => {
    for (let i = 0; i < 5; i++) await feed("short", i);
    const detected = await feed("short", 0);
    assert.equal(detected.detection?.detected, true);
    assert.equal(detected.disprovenNodes.length, 5);
    const change = await s.history.getChange({ projectId: "loops", generation: detected.header?.generation ?? 0n });
    const delta = change.change?.delta?.kind;
    assert.equal(delta?.case === "proof" ? delta.value.entries.length : 0, 5, "every disproof is in the record");
  });
});
