import assert from "node:assert/strict";
import { test } from "node:test";
import { ClassicLevel } from "classic-level";
import { answerOf, similarity } from "../projects/host-conformance.js";
import { StoreHost } from "../projects/store-host.js";
import { keys } from "../store/level/level-keys.js";
import { LevelStore } from "../store/level-store.js";
import { fullDisk, withTempDir } from "../store/test-support.js";

/** Makes projects with `records` mutations each in a classic-level store at `dir`; returns their uids. */
async function seed(dir: string, ids: string[], records: number): Promise<Map<string, string>> {
  const host = new StoreHost(await LevelStore.open(dir));
  const uids = new Map<string, string>();
  for (const id of ids) {
    uids.set(id, (await host.create(id, {})).projectUid);
    for (let i = 0; i < records; i++) await host.mutate(id, { method: "Apply" }, similarity(`n${i}`, "m", 0.5), answerOf);
  }
  await host.close();
  return uids;
}

/** Replaces a journal record's stored bytes, as an interrupted or damaged write leaves them. */
async function damage(dir: string, uid: string, seq: number, edit: (bytes: Uint8Array) => Uint8Array): Promise<void> {
  const db = new ClassicLevel<string, Uint8Array>(dir, { keyEncoding: "utf8", valueEncoding: "view" });
  const key = keys.journal(uid, seq);
  const bytes = await db.get(key);
  assert.ok(bytes !== undefined, `record ${seq} exists`);
  await db.put(key, edit(bytes));
  await db.close();
}

test("repairs a torn last record: cut, kept aside, and the project serves from the record before", async () => {
  await withTempDir("crs-repair-", async (dir) => {
    const uids = await seed(dir, ["p"], 3);
    const uid = uids.get("p") as string;
    await damage(dir, uid, 3, (b) => b.subarray(0, b.length - 7));
    const store = await LevelStore.open(dir);
    const host = new StoreHost(store);
    try {
      assert.equal(await host.read("p", (v) => v.header.generation), 2, "recovered up to the last whole record");
      assert.equal(host.counters.tornTailsCut, 1, "the repair is counted");
      const cut = await store.readCut(uid);
      assert.deepEqual(
        cut.map((c) => c.seq),
        [3],
        "the torn record is kept aside",
      );
      const next = await host.mutate("p", { method: "Apply" }, similarity("x", "y", 0.1), answerOf);
      assert.equal(next.header.generation, 3, "the generation continues without a gap");
      assert.equal((await host.status("p")).lastSequence, 3, "the cut sequence number is reused, leaving no gap");
    } finally {
      await host.close();
    }
  });
});

test("refuses a torn record in the middle of the journal: that project alone is DATA_LOSS", async () => {
  await withTempDir("crs-repair-", async (dir) => {
    const uids = await seed(dir, ["p", "q"], 3);
    await damage(dir, uids.get("p") as string, 2, (b) => b.subarray(0, 20));
    const store = await LevelStore.open(dir);
    const host = new StoreHost(store);
    try {
      await assert.rejects(
        host.read("p", (v) => v),
        { code: "PROJECT_DATA_LOSS" },
        "the damaged project refuses calls",
      );
      assert.equal((await host.status("p")).state, "data_loss", "status says data_loss");
      assert.equal(await host.read("q", (v) => v.header.generation), 3, "the other project serves");
      assert.deepEqual(await store.readCut(uids.get("p") as string), [], "nothing was cut");
    } finally {
      await host.close();
    }
  });
});

test("reports a failure to keep aside and cut a torn tail, cutting nothing, and repairs once writes work", async () => {
  await withTempDir("crs-repair-", async (dir) => {
    const uids = await seed(dir, ["p"], 2);
    const uid = uids.get("p") as string;
    await damage(dir, uid, 2, (b) => b.subarray(0, 3));
    const disk = fullDisk(true);
    const store = await LevelStore.open(dir, { wrapWriter: disk.wrapWriter });
    const host = new StoreHost(store);
    try {
      await assert.rejects(
        host.read("p", (v) => v),
        { code: "REPAIR_FAILED" },
        "the failed cut is reported",
      );
      assert.deepEqual(await store.readCut(uid), [], "nothing kept aside");
      disk.full = false;
      assert.equal(await host.read("p", (v) => v.header.generation), 1, "a later load repairs");
      assert.deepEqual(
        (await store.readCut(uid)).map((c) => c.seq),
        [2],
      );
    } finally {
      await host.close();
    }
  });
});
