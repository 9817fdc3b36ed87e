import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

describe("SimilarityService through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId: "sim", config: { maxSimilarityPairs: 2 } });
  });
  after(async () => {
    await s.stop();
  });

  it("stores each pair once in canonical order and reads it in either order", async () => {
    const r = await s.similarity.recordSimilarity({ projectId: "sim", a: "b", b: "a", distance: 2.5 });
    assert.deepEqual([r.pair?.a, r.pair?.b, r.updated], ["a", "b", false]);
    const again = await s.similarity.recordSimilarity({ projectId: "sim", a: "a", b: "b", distance: 1 });
    assert.equal(again.updated, true);
    const read = (await s.similarity.getSimilarity({ projectId: "sim", a: "b", b: "a" })).pair;
    assert.equal(read?.distance, 1);
    // The contract says what a pair does not record; `mod_generation` names its last change.
    assert.deepEqual([read?.source, read?.updatedAtUnixMs, read?.modGeneration], [0, 0n, again.header?.generation]);
    await expectError(s.similarity.getSimilarity({ projectId: "sim", a: "a", b: "zz" }), status.NOT_FOUND, "SIMILARITY_NOT_FOUND");
  });

  it("answers nearest neighbours and pages through pairs", async () => {
    await s.similarity.recordSimilarity({ projectId: "sim", a: "a", b: "c", distance: 0.5 });
    const nn = await s.similarity.nearestNeighbors({ projectId: "sim", key: "a", k: 5 });
    assert.deepEqual(
      nn.neighbors.map((n) => n.key),
      ["c", "b"],
    );
    const p1 = await s.similarity.listSimilarityPairs({ projectId: "sim", pageSize: 1 });
    const p2 = await s.similarity.listSimilarityPairs({ projectId: "sim", pageSize: 1, pageToken: p1.nextPageToken });
    assert.deepEqual(
      [...p1.pairs, ...p2.pairs].map((p) => `${p.a}-${p.b}`),
      ["a-b", "a-c"],
    );
    assert.equal(p2.nextPageToken, "");
    await expectError(
      s.similarity.nearestNeighbors({ projectId: "sim", key: "a", k: 0 }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "k",
    );
  });

  it("refuses bad distances naming the field, and a new pair in a full index", async () => {
    await expectError(
      s.similarity.recordSimilarity({ projectId: "sim", a: "x", b: "y", distance: -1 }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "distance",
    );
    await expectError(
      s.similarity.recordSimilarity({ projectId: "sim", a: "x", b: "x", distance: 1 }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "b",
    );
    const full = await expectError(
      s.similarity.recordSimilarity({ projectId: "sim", a: "x", b: "y", distance: 1 }),
      status.RESOURCE_EXHAUSTED,
      "SIMILARITY_CAPACITY",
    );
    // errors.proto promises the cap the pair ran into.
    assert.equal(errorDetailOf(full)?.metadata["limit"], "2");
  });

  it("refuses an Apply naming one pair twice, in either order, at the repeated entry and applies none of it", async () => {
    await s.state.createProject({ projectId: "sim-twice" });
    const pairs = (updates: [string, string][]) => ({
      projectId: "sim-twice",
      delta: {
        source: SignalSource.SOFT,
        kind: { case: "similarity" as const, value: { updates: updates.map(([a, b]) => ({ a, b, distance: 1 })) } },
      },
    });
    await expectError(
      s.state.apply(
        pairs([
          ["a", "b"],
          ["c", "d"],
          ["b", "a"],
        ]),
      ),
      status.INVALID_ARGUMENT,
      "DELTA_VALIDATION",
      "delta.similarity.updates[2].b",
    );
    const listed = await s.similarity.listSimilarityPairs({ projectId: "sim-twice" });
    assert.equal(listed.pairs.length, 0, "nothing applied");
    const one = await s.state.apply(pairs([["b", "a"]]));
    assert.equal(one.header?.generation, 1n, "a lone pair is applied");
  });
});
