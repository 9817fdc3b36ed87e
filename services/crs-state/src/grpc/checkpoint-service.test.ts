import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { ClassicLevel } from "classic-level";
import { keys } from "../store/level/level-keys.js";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./test-support.js";

/** Flips one bit in the middle of a stored checkpoint, as a failing disk would. */
async function flipBit(dataDir: string, projectUid: string, checkpointId: string): Promise<number> {
  const db = new ClassicLevel<string, Uint8Array>(dataDir, { keyEncoding: "utf8", valueEncoding: "view" });
  try {
    const key = keys.checkpoint(projectUid, checkpointId);
    const bytes = (await db.get(key))?.slice();
    assert.ok(bytes !== undefined, `checkpoint ${checkpointId} is stored`);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = (bytes[at] as number) ^ 0x04;
    await db.put(key, bytes);
    return bytes.length;
  } finally {
    await db.close();
  }
}

/**
 * A project with checkpoints `a`, `bad` and `z` taken at generation 1, `bad` then damaged on disk,
 * served again; `fn` gets the server and the damaged checkpoint's stored size.
 */
async function withDamagedCheckpoint(fn: (s: TestServer, badSize: number) => Promise<void>): Promise<void> {
  const first = await startTestServer({ durable: true });
  let uid = "";
  try {
    uid = (await first.state.createProject({ projectId: "p" })).header?.projectUid ?? "";
    await first.similarity.recordSimilarity({ projectId: "p", a: "x", b: "y", distance: 1 });
    for (const checkpointId of ["a", "bad", "z"]) await first.state.createCheckpoint({ projectId: "p", checkpointId });
  } finally {
    await first.stop();
  }
  const badSize = await flipBit(first.dataDir, uid, "bad");
  const s = await startTestServer({ dataDir: first.dataDir });
  try {
    await fn(s, badSize);
  } finally {
    await s.stop();
    await removeDataDir(first.dataDir);
  }
}

describe("checkpoints through gRPC", () => {
  it("refuses a checkpoint with a flipped bit as CHECKPOINT_CORRUPTED on get, restore and fork, not as a stopped project", async () => {
    await withDamagedCheckpoint(async (s) => {
      const calls: Record<string, () => Promise<unknown>> = {
        GetCheckpoint: () => s.state.getCheckpoint({ projectId: "p", checkpointId: "bad" }),
        RestoreCheckpoint: () => s.state.restoreCheckpoint({ projectId: "p", checkpointId: "bad" }),
        ForkProject: () => s.state.forkProject({ projectId: "p", targetProjectId: "fork", origin: { case: "checkpointId", value: "bad" } }),
      };
      for (const [method, call] of Object.entries(calls)) {
        const e = await expectError(call(), status.DATA_LOSS, "CHECKPOINT_CORRUPTED");
        assert.equal(errorDetailOf(e)?.metadata["checkpoint_id"], "bad", `${method} names the checkpoint`);
        assert.equal(errorDetailOf(e)?.metadata["project_id"], "p", `${method} names the project`);
        assert.match(e.details, /checkpoint bad of project p is damaged: crc/, method);
      }
      await expectError(s.state.getGeneration({ projectId: "fork" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
      // The project serves on: reads, writes and its other checkpoints.
      assert.equal((await s.state.getGeneration({ projectId: "p" })).header?.generation, 1n, "nothing was restored");
      await s.similarity.recordSimilarity({ projectId: "p", a: "x", b: "z", distance: 2 });
      const restored = await s.state.restoreCheckpoint({ projectId: "p", checkpointId: "a" });
      assert.deepEqual([restored.header?.generation, restored.restoredFromGeneration], [3n, 1n], "an intact checkpoint restores");
      // DeleteCheckpoint removes it, as the reason promises.
      await s.state.deleteCheckpoint({ projectId: "p", checkpointId: "bad" });
      await expectError(s.state.getCheckpoint({ projectId: "p", checkpointId: "bad" }), status.NOT_FOUND, "CHECKPOINT_NOT_FOUND");
    });
  });

  it("lists a damaged checkpoint by id and size, flagged damaged, instead of failing the page and hiding the others", async () => {
    await withDamagedCheckpoint(async (s, badSize) => {
      const all = await s.state.listCheckpoints({ projectId: "p" });
      assert.deepEqual(
        all.checkpoints.map((c) => [c.checkpointId, c.damaged, c.unsupportedFormat, c.generation, c.createdAtUnixMs > 0n]),
        [
          ["a", false, false, 1n, true],
          ["bad", true, false, 0n, false],
          ["z", false, false, 1n, true],
        ],
        "the damaged one between the intact ones, its generation and creation time unknown",
      );
      assert.equal(all.checkpoints[1]?.sizeBytes, BigInt(badSize), "the stored size is known");
      const ids: string[] = [];
      let pageToken = "";
      do {
        const page = await s.state.listCheckpoints({ projectId: "p", pageSize: 1, pageToken });
        ids.push(...page.checkpoints.map((c) => c.checkpointId));
        pageToken = page.nextPageToken;
      } while (pageToken !== "" && ids.length < 10);
      assert.deepEqual(ids, ["a", "bad", "z"], "paging passes over it too");
    });
  });
});
