import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { ClassicLevel } from "classic-level";
import { range } from "../store/level/level-keys.js";
import { flipCheckpointBit } from "./stored-edits.js";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./test-support.js";

/**
 * A project with checkpoints `a`, `bad` and `z` taken at generation 1, `bad`'s head (or body) then
 * damaged on disk, served again; `fn` gets the server and the damaged checkpoint's stored size.
 */
async function withDamagedCheckpoint(fn: (s: TestServer, badSize: number) => Promise<void>, part: "head" | "body" = "head"): Promise<void> {
  const first = await startTestServer({ durable: true });
  let uid = "";
  try {
    uid = (await first.state.createProject({ projectId: "p" })).header?.projectUid ?? "";
    await first.similarity.recordSimilarity({ projectId: "p", a: "x", b: "y", distance: 1 });
    for (const checkpointId of ["a", "bad", "z"]) await first.state.createCheckpoint({ projectId: "p", checkpointId });
  } finally {
    await first.stop();
  }
  const badSize = await flipCheckpointBit(first.dataDir, uid, "bad", part);
  const s = await startTestServer({ dataDir: first.dataDir });
  try {
    await fn(s, badSize);
  } finally {
    await s.stop();
    await removeDataDir(first.dataDir);
  }
}

describe("checkpoints through gRPC", () => {
  for (const [part, detail] of [
    ["head", /checkpoint bad of project p is damaged: crc/],
    ["body", /checkpoint bad of project p is damaged: body: crc/],
  ] as const) {
    it(`refuses a checkpoint with a flipped bit in its ${part} as CHECKPOINT_CORRUPTED on get, restore and fork, not as a stopped project`, async () => {
      await withDamagedCheckpoint(async (s) => {
        const calls: Record<string, () => Promise<unknown>> = {
          GetCheckpoint: () => s.state.getCheckpoint({ projectId: "p", checkpointId: "bad" }),
          RestoreCheckpoint: () => s.state.restoreCheckpoint({ projectId: "p", checkpointId: "bad" }),
          ForkProject: () =>
            s.state.forkProject({ projectId: "p", targetProjectId: "fork", origin: { case: "checkpointId", value: "bad" } }),
        };
        for (const [method, call] of Object.entries(calls)) {
          const e = await expectError(call(), status.DATA_LOSS, "CHECKPOINT_CORRUPTED");
          assert.equal(errorDetailOf(e)?.metadata["checkpoint_id"], "bad", `${method} names the checkpoint`);
          assert.equal(errorDetailOf(e)?.metadata["project_id"], "p", `${method} names the project`);
          assert.match(e.details, detail, method);
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
      }, part);
    });
  }

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

  it("lists a checkpoint whose body is damaged from its intact head, as listing reads no body, with the stored size of both", async () => {
    await withDamagedCheckpoint(async (s, badSize) => {
      const rows = (await s.state.listCheckpoints({ projectId: "p" })).checkpoints;
      assert.deepEqual(
        rows.map((c) => [c.checkpointId, c.damaged, c.unsupportedFormat, c.generation]),
        [
          ["a", false, false, 1n],
          ["bad", false, false, 1n],
          ["z", false, false, 1n],
        ],
        "the head verifies, so the row reads as the head says; GetCheckpoint is where the body is checked",
      );
      assert.equal(rows[1]?.sizeBytes, BigInt(badSize), "head and body");
      await expectError(s.state.getCheckpoint({ projectId: "p", checkpointId: "bad" }), status.DATA_LOSS, "CHECKPOINT_CORRUPTED");
    }, "body");
  });

  it("refuses CreateCheckpoint beyond the per-project limit as RESOURCE_EXHAUSTED / LIMIT_EXCEEDED, across a restart, until one is deleted", async () => {
    const env = { CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT: "2" };
    const first = await startTestServer({ durable: true, env });
    try {
      await first.state.createProject({ projectId: "full" });
      await first.state.createProject({ projectId: "other" });
      await first.state.createCheckpoint({ projectId: "full", checkpointId: "c1" });
      await first.state.createCheckpoint({ projectId: "full", checkpointId: "c2" });
    } finally {
      await first.stop();
    }
    // The count after a restart comes from what is stored.
    const s = await startTestServer({ dataDir: first.dataDir, env });
    try {
      const e = await expectError(
        s.state.createCheckpoint({ projectId: "full", checkpointId: "c3" }),
        status.RESOURCE_EXHAUSTED,
        "LIMIT_EXCEEDED",
      );
      assert.deepEqual(errorDetailOf(e)?.metadata, { limit: "2", project_id: "full" }, "the limit, and whose");
      assert.match(e.details, /CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT=2/, "the message names the setting");
      assert.equal(errorDetailOf(e)?.retryDelayMs, undefined, "retrying unchanged cannot succeed");
      await expectError(s.state.getCheckpoint({ projectId: "full", checkpointId: "c3" }), status.NOT_FOUND, "CHECKPOINT_NOT_FOUND");
      // A retried create of a checkpoint that exists still answers as before.
      await expectError(
        s.state.createCheckpoint({ projectId: "full", checkpointId: "c1" }),
        status.ALREADY_EXISTS,
        "CHECKPOINT_ALREADY_EXISTS",
      );
      await s.state.createCheckpoint({ projectId: "other", checkpointId: "c1" });
      await s.state.deleteCheckpoint({ projectId: "full", checkpointId: "c1" });
      await s.state.createCheckpoint({ projectId: "full", checkpointId: "c3" });
      assert.deepEqual(
        (await s.state.listCheckpoints({ projectId: "full" })).checkpoints.map((c) => c.checkpointId),
        ["c2", "c3"],
      );
    } finally {
      await s.stop();
      await removeDataDir(first.dataDir);
    }
  });

  it("admits exactly the limit of concurrent CreateCheckpoint calls on one project, never one more", async () => {
    const s = await startTestServer({ durable: true, env: { CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT: "5" } });
    // Twelve creates at once; the admitted ones, after checking every refusal is the limit's.
    const burst = async (prefix: string): Promise<number> => {
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => s.state.createCheckpoint({ projectId: "race", checkpointId: `${prefix}-${i}` })),
      );
      for (const r of results)
        if (r.status === "rejected") assert.equal(errorDetailOf(r.reason)?.reason, "LIMIT_EXCEEDED", String(r.reason));
      return results.filter((r) => r.status === "fulfilled").length;
    };
    const held = async () => (await s.state.listCheckpoints({ projectId: "race" })).checkpoints.map((c) => c.checkpointId);
    try {
      await s.state.createProject({ projectId: "race" });
      assert.equal(await burst("first"), 5, "up to the limit");
      assert.equal((await held()).length, 5, "and no more stored");
      for (const checkpointId of (await held()).slice(0, 2)) await s.state.deleteCheckpoint({ projectId: "race", checkpointId });
      assert.equal(await burst("second"), 2, "two deleted make room for two");
      assert.equal((await held()).length, 5, "the limit again");
      assert.equal(await burst("third"), 0, "a full project admits none");
    } finally {
      await s.stop();
      await removeDataDir(s.dataDir);
    }
  });

  it("leaves no checkpoint on disk of a project deleted while CreateCheckpoint calls were in flight", async () => {
    const s = await startTestServer({ durable: true });
    try {
      for (let round = 0; round < 10; round++) {
        await s.state.createProject({ projectId: "gone" });
        // Each create lands before the delete (which purges it) or fails PROJECT_NOT_FOUND after it.
        const results = await Promise.allSettled([
          ...Array.from({ length: 3 }, (_, i) => s.state.createCheckpoint({ projectId: "gone", checkpointId: `c${i}` })),
          s.state.deleteProject({ projectId: "gone" }),
        ]);
        for (const r of results)
          if (r.status === "rejected") assert.equal(errorDetailOf(r.reason)?.reason, "PROJECT_NOT_FOUND", String(r.reason));
      }
    } finally {
      await s.stop();
    }
    const db = new ClassicLevel<string, Uint8Array>(s.dataDir, { keyEncoding: "utf8", valueEncoding: "view" });
    try {
      const left = await db.keys(range("c!")).all();
      assert.deepEqual(left, [], "checkpoints of deleted projects are purged, never written after the purge");
    } finally {
      await db.close();
      await removeDataDir(s.dataDir);
    }
  });

  it("refuses a malformed checkpoint_id or at_generation as INVALID_ARGUMENT naming it, before looking up the source", async () => {
    const s = await startTestServer();
    try {
      for (const projectId of ["absent", "present"]) {
        if (projectId === "present") await s.state.createProject({ projectId });
        await expectError(
          s.state.forkProject({ projectId, targetProjectId: "t", origin: { case: "checkpointId", value: "not an id" } }),
          status.INVALID_ARGUMENT,
          "INVALID_ARGUMENT",
          "checkpoint_id",
        );
        await expectError(
          s.state.forkProject({ projectId, targetProjectId: "t", origin: { case: "atGeneration", value: 2n ** 60n } }),
          status.INVALID_ARGUMENT,
          "INVALID_ARGUMENT",
          "at_generation",
        );
      }
      await expectError(s.state.getGeneration({ projectId: "t" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
    } finally {
      await s.stop();
    }
  });
});
