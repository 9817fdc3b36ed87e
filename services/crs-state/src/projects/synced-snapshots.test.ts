import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually } from "@crs/runtime/testing";
import { decodeCheckpoint } from "../snapshot/checkpoint-record.js";
import { LevelStore } from "../store/level-store.js";
import { FaultStore, enospc, withTempDir } from "../store/test-support.js";
import { answerOf, similarity } from "./host-conformance.js";
import { StoreHost } from "./store-host.js";

test("a state snapshot or checkpoint never holds a mutation whose journal batch was not synced", async () => {
  await withTempDir("crs-synced-", async (dir) => {
    const faults = new FaultStore(await LevelStore.open(dir));
    // Every fourth record carries a state snapshot, so the fourth mutation's batch holds one.
    const host = new StoreHost(faults, { snapshotEveryRecords: 4, probeIntervalMs: 20 });
    try {
      await host.create("p", {});
      const uid = await host.read("p", (v) => v.header.projectUid);
      await host.mutate("p", { method: "Apply" }, similarity("a", "b", 0.1), answerOf);
      faults.hold();
      // A checkpoint taken while the second mutation waits for its sync captures the synced generation.
      const pending = host.mutate("p", { method: "Apply" }, similarity("a", "x", 0.5), answerOf);
      const cp = await Promise.all([host.checkpoints.create("p", { checkpointId: "mid" }), Promise.resolve(faults.release())]);
      await pending;
      assert.equal(cp[0].generation, 1, "the checkpoint holds the generation synced when it was taken");
      const stored = decodeCheckpoint((await faults.inner.getCheckpoint(uid, "mid")) ?? { head: new Uint8Array() }, "mid");
      assert.ok(stored.ok && stored.value.checkpoint.document.similarity.length === 1, "and only that generation's content");
      faults.hold();
      // The third mutation's batch is in flight; the fourth, with its snapshot of generations 1-4, waits behind it.
      const third = host.mutate("p", { method: "Apply" }, similarity("a", "c", 0.2), answerOf);
      const fourth = host.mutate("p", { method: "Apply" }, similarity("a", "d", 0.3), answerOf);
      assert.equal(await host.read("p", (v) => v.header.generation), 2, "reads see only the synced generation");
      faults.failWith = enospc();
      faults.release();
      const [a, b] = await Promise.allSettled([third, fourth]);
      assert.deepEqual([a.status, b.status], ["rejected", "rejected"], "the failed batch and the one built on it are refused");
      faults.failWith = undefined;
      await eventually(() => host.serving());
      assert.deepEqual(
        (await faults.inner.readSnapshots(uid)).map((s) => s.seq),
        [],
        "no snapshot of the unsynced mutations reached the disk",
      );
      assert.equal(await host.read("p", (v) => v.header.generation), 2, "the reloaded project is at the synced generation");
      const next = await host.mutate("p", { method: "Apply" }, similarity("a", "e", 0.4), answerOf);
      assert.equal(next.header.generation, 3, "generations continue from the synced state");
    } finally {
      await host.close();
    }
  });
});
