import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ClassicLevel } from "classic-level";
import { encodeJsonFrame } from "../journal/json-frame.js";
import { decodeCheckpoint } from "../snapshot/index.js";
import { keys } from "../store/level/level-keys.js";
import { removeDataDir, startTestServer } from "./test-support.js";

/**
 * Stores a copy of checkpoint `from` under `to` the way format 1 stored every checkpoint (one
 * value, document inside, no body), as a store written before format 2 holds it; returns its size.
 */
async function copyAsFormat1(dataDir: string, projectUid: string, ids: { from: string; to: string }): Promise<number> {
  const db = new ClassicLevel<string, Uint8Array>(dataDir, { keyEncoding: "utf8", valueEncoding: "view" });
  try {
    const [head, body] = await db.getMany([keys.checkpoint(projectUid, ids.from), keys.checkpointBody(projectUid, ids.from)]);
    assert.ok(head !== undefined && body !== undefined, "format 2 stores a head and a body");
    const d = decodeCheckpoint({ head, body }, ids.from);
    assert.ok(d.ok);
    const { generation, createdAt, document } = d.value.checkpoint;
    const whole = encodeJsonFrame("checkpoint", { format: 1, checkpointId: ids.to, generation, createdAt, document });
    await db.put(keys.checkpoint(projectUid, ids.to), whole);
    return whole.length;
  } finally {
    await db.close();
  }
}

describe("ListCheckpoints over checkpoints of both stored formats", () => {
  it("answers a format-1 checkpoint with the row it always had, and the same checkpoint in format 2 with the same row but for its stored size", async () => {
    const first = await startTestServer({ durable: true });
    let uid = "";
    try {
      uid = (await first.state.createProject({ projectId: "p" })).header?.projectUid ?? "";
      await first.similarity.recordSimilarity({ projectId: "p", a: "x", b: "y", distance: 1 });
      await first.state.createCheckpoint({ projectId: "p", checkpointId: "b-new" });
    } finally {
      await first.stop();
    }
    const oldSize = await copyAsFormat1(first.dataDir, uid, { from: "b-new", to: "a-old" });
    const s = await startTestServer({ dataDir: first.dataDir });
    try {
      const rows = (await s.state.listCheckpoints({ projectId: "p" })).checkpoints;
      assert.deepEqual(
        rows.map((c) => [c.checkpointId, c.generation, c.damaged, c.unsupportedFormat]),
        [
          ["a-old", 1n, false, false],
          ["b-new", 1n, false, false],
        ],
      );
      const [old, current] = rows;
      assert.equal(old?.createdAtUnixMs, current?.createdAtUnixMs, "one creation time, read from either format");
      assert.ok(old !== undefined && current !== undefined && current.createdAtUnixMs > 0n);
      assert.equal(old.sizeBytes, BigInt(oldSize), "a format-1 checkpoint's size is its one stored value, as before");
      assert.ok(current.sizeBytes > old.sizeBytes, "format 2 stores a head beside the document");
      for (const row of rows) {
        const got = await s.state.getCheckpoint({ projectId: "p", checkpointId: row.checkpointId });
        assert.deepEqual(got.checkpoint, row, `GetCheckpoint of ${row.checkpointId}, which reads it whole, agrees with the listing`);
      }
      const restored = await s.state.restoreCheckpoint({ projectId: "p", checkpointId: "a-old" });
      assert.equal(restored.restoredFromGeneration, 1n, "the format-1 checkpoint restores");
    } finally {
      await s.stop();
      await removeDataDir(first.dataDir);
    }
  });
});
