import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { ProofStatus, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { expectError, removeDataDir, startTestServer } from "./test-support.js";

const proofDelta = (nodeId: string, proof: bigint) => ({
  source: SignalSource.SOFT,
  kind: {
    case: "proof" as const,
    value: { entries: [{ nodeId, value: { proof, disproof: 10n, status: ProofStatus.EXPANDED, source: SignalSource.SOFT } }] },
  },
});

describe("request ids through gRPC", () => {
  it("forgets a request id beyond the server's configured window, also after a restart", async () => {
    const env = { CRS_STATE_REQUEST_ID_RETENTION: "2" };
    const first = await startTestServer({ durable: true, env });
    const apply = (s: typeof first, id: string) =>
      s.state.apply({ projectId: "w", delta: proofDelta("n", 1n), options: { requestId: id } });
    try {
      await first.state.createProject({ projectId: "w" });
      for (const id of ["a", "b", "c"]) await apply(first, id);
    } finally {
      await first.stop();
    }
    const second = await startTestServer({ dataDir: first.dataDir, env });
    try {
      const kept = await apply(second, "c");
      assert.deepEqual([kept.header?.replayed, kept.header?.generation], [true, 3n], "the newest ids are remembered across the restart");
      const forgotten = await apply(second, "a");
      assert.deepEqual([forgotten.header?.replayed, forgotten.header?.generation], [false, 4n], "the id beyond the window is applied anew");
    } finally {
      await second.stop();
      await removeDataDir(first.dataDir);
    }
  });

  it("keeps a create's request id apart from the ids of the project's mutations", async () => {
    const s = await startTestServer();
    try {
      await s.state.createProject({ projectId: "c", requestId: "op-1" });
      const applied = await s.state.apply({ projectId: "c", delta: proofDelta("n", 1n), options: { requestId: "op-1" } });
      assert.deepEqual([applied.header?.replayed, applied.header?.generation], [false, 1n], "a mutation with the create's id is applied");
      const again = await s.state.createProject({ projectId: "c", requestId: "op-1" });
      assert.deepEqual([again.header?.replayed, again.header?.generation], [true, 0n], "the create's retry still replays its answer");
      await expectError(
        s.state.apply({ projectId: "c", delta: proofDelta("n", 2n), options: { requestId: "op-1" } }),
        status.INVALID_ARGUMENT,
        "REQUEST_ID_REUSED",
        "options.request_id",
      );
    } finally {
      await s.stop();
    }
  });

  it("checks a validate_only call against the state alone, not against remembered request ids", async () => {
    const s = await startTestServer();
    try {
      await s.state.createProject({ projectId: "v" });
      await s.state.apply({ projectId: "v", delta: proofDelta("n", 1n), options: { requestId: "r" } });
      const dry = await s.state.apply({ projectId: "v", delta: proofDelta("n", 2n), options: { requestId: "r" }, validateOnly: true });
      assert.deepEqual([dry.header?.replayed, dry.header?.generation], [false, 1n], "answered from the state, not refused as a reused id");
      await expectError(
        s.state.apply({ projectId: "v", delta: proofDelta("n", 2n), options: { requestId: "r" } }),
        status.INVALID_ARGUMENT,
        "REQUEST_ID_REUSED",
      );
    } finally {
      await s.stop();
    }
  });
});
