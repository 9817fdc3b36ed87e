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
