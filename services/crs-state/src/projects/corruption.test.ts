import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ClassicLevel } from "classic-level";
import { eventually } from "@crs/runtime/testing";
import { keys } from "../store/level/level-keys.js";
import type { BatchWriter } from "../store/level/durable-batch.js";
import { LevelStore } from "../store/level-store.js";
import { MemoryStore } from "../store/memory-store.js";
import { enospc, fullDisk, withTempDir } from "../store/test-support.js";
import { answerOf, codeOf, similarity } from "./host-conformance.js";
import { decodeMeta } from "./project-meta.js";
import { recoverProject } from "./recover-project.js";
import { StoreHost } from "./store-host.js";

const recoverOptions = { now: () => 0, requestIdRetention: 100, skipCorrupted: false };

async function rawEdit(dir: string, key: string, edit: (b: Uint8Array) => Uint8Array): Promise<void> {
  const db = new ClassicLevel<string, Uint8Array>(dir, { keyEncoding: "utf8", valueEncoding: "view" });
  const bytes = await db.get(key);
  assert.ok(bytes !== undefined, `${key} exists`);
  await db.put(key, edit(bytes));
  await db.close();
}

const flip = (at: number) => (b: Uint8Array) => {
  const c = b.slice();
  const i = Math.min(at, c.length - 1);
  c[i] = (c[i] as number) ^ 0x04;
  return c;
};

describe("corruption", () => {
  test("the last record cut at every byte offset recovers every record before it", async () => {
    const store = new MemoryStore();
    const host = new StoreHost(store, { snapshotEveryRecords: 1_000 });
    const { projectUid } = await host.create("p", {});
    for (let i = 0; i < 4; i++) await host.mutate("p", { method: "Apply", requestId: `r${i}` }, similarity(`n${i}`, "m", 0.5), answerOf);
    const meta = decodeMeta((await store.getMeta("p"))?.bytes ?? new Uint8Array(), "p");
    assert.ok(meta.ok);
    const journal: { seq: number; bytes: Uint8Array }[] = [];
    for await (const r of store.readJournal(projectUid, 0)) journal.push(r);
    const last = journal.at(-1);
    assert.ok(last !== undefined && last.seq === 4);
    for (let cut = 0; cut < last.bytes.length; cut++) {
      const copy = new MemoryStore();
      await copy.write(journal.map((r) => ({ op: "append" as const, projectUid, seq: r.seq, bytes: r.bytes })));
      copy.damageJournal(projectUid, 4, last.bytes.subarray(0, cut));
      const r = await recoverProject(copy, meta.value, recoverOptions);
      assert.equal(r.engine.generation, 3, `cut at ${cut}: recovered through record 3`);
      assert.equal(r.repair?.action, "cut-torn-tail", `cut at ${cut}: repaired as a torn tail`);
      assert.equal(r.requests.size, 3, `cut at ${cut}: request ids of records 1-3 remembered`);
      assert.deepEqual(
        (await copy.readCut(projectUid)).map((c) => c.bytes.length),
        [cut],
        `cut at ${cut}: the torn bytes kept aside`,
      );
    }
    await host.close();
  });

  test("a flipped bit in a journal record stops that project with DATA_LOSS, leaves the others serving, and skip-corrupted cuts it", async () => {
    await withTempDir("crs-corrupt-", async (dir) => {
      const host = new StoreHost(await LevelStore.open(dir));
      const p = await host.create("p", {});
      await host.create("q", {});
      for (let i = 0; i < 4; i++) {
        await host.mutate("p", { method: "Apply" }, similarity(`n${i}`, "m", 0.5), answerOf);
        await host.mutate("q", { method: "Apply" }, similarity(`n${i}`, "m", 0.5), answerOf);
      }
      await host.close();
      for (const [seq, at] of [
        [2, 40],
        [4, 60],
        [1, 3],
      ] as const) {
        await rawEdit(dir, keys.journal(p.projectUid, seq), flip(at));
        const h = new StoreHost(await LevelStore.open(dir));
        assert.equal(await codeOf(h.read("p", (v) => v)), "PROJECT_DATA_LOSS", `flip in record ${seq} byte ${at} is data loss`);
        assert.equal(await h.read("q", (v) => v.header.generation), 4, "the other project serves");
        await h.close();
        await rawEdit(dir, keys.journal(p.projectUid, seq), flip(at));
      }
      await rawEdit(dir, keys.journal(p.projectUid, 3), flip(50));
      const notices: string[] = [];
      const skip = new StoreHost(await LevelStore.open(dir), { skipCorrupted: true, events: { notice: (e) => notices.push(e) } });
      assert.equal(await skip.read("p", (v) => v.header.generation), 2, "skip-corrupted keeps the records before the damage");
      assert.equal(skip.counters.corruptionsSkipped, 1, "and counts the skip");
      assert.ok(notices.includes("cut-after-corruption"), "and reports it");
      await skip.close();
    });
  });

  test("a flipped bit in the newest snapshot falls back to the previous one and loses nothing; both damaged is DATA_LOSS", async () => {
    await withTempDir("crs-corrupt-", async (dir) => {
      const host = new StoreHost(await LevelStore.open(dir), { snapshotEveryRecords: 3 });
      const p = await host.create("p", {});
      await host.create("q", {});
      for (let i = 0; i < 8; i++) await host.mutate("p", { method: "Apply", requestId: `r${i}` }, similarity(`n${i}`, "m", 0.5), answerOf);
      await host.mutate("q", { method: "Apply" }, similarity("a", "b", 0.5), answerOf);
      await host.close();
      const snaps = await snapshotSeqsOf(dir, p.projectUid);
      assert.deepEqual(snaps, [6, 3], "two snapshots are kept");
      await rawEdit(dir, keys.snapshot(p.projectUid, 6), flip(100));
      const notices: string[] = [];
      const h = new StoreHost(await LevelStore.open(dir), { events: { notice: (e) => notices.push(e) } });
      assert.equal(await h.read("p", (v) => v.header.generation), 8, "every acknowledged mutation is back");
      assert.equal(h.counters.corruptSnapshots, 1, "the damaged snapshot is counted");
      assert.ok(notices.includes("snapshot-passed-over"), "and reported for the operator's log");
      const retry = await h.mutate("p", { method: "Apply", requestId: "r7" }, similarity("n7", "m", 0.5), answerOf);
      assert.equal(retry.replayed, true, "request ids survive the fallback");
      await h.close();
      await rawEdit(dir, keys.snapshot(p.projectUid, 3), flip(100));
      const h2 = new StoreHost(await LevelStore.open(dir));
      assert.equal(await codeOf(h2.read("p", (v) => v)), "PROJECT_DATA_LOSS", "no snapshot verifies");
      assert.equal(await h2.read("q", (v) => v.header.generation), 1, "the other project serves");
      await h2.close();
    });
  });

  test("an answer resting on a write still in flight fails when that write fails, instead of naming a generation never stored", async () => {
    await withTempDir("crs-corrupt-", async (dir) => {
      let gate: Promise<void> | undefined;
      let release = (): void => undefined;
      const wrapWriter =
        (inner: BatchWriter): BatchWriter =>
        async (ops) => {
          if (gate !== undefined) {
            await gate;
            throw enospc();
          }
          await inner(ops);
        };
      const host = new StoreHost(await LevelStore.open(dir, { wrapWriter }), { probeIntervalMs: 20 });
      await host.create("p", {});
      await host.mutate("p", { method: "Apply" }, similarity("a", "m", 0.5), answerOf);
      gate = new Promise((resolve) => (release = resolve));
      const held = host.mutate("p", { method: "Apply" }, similarity("b", "m", 0.5), answerOf);
      const unjournaled = host.mutate("p", { method: "CheckDecisionAllowed" }, (e) => e.checkDecisionAllowed("s", "Read"), answerOf);
      release();
      assert.equal(await codeOf(held), "STORE_UNAVAILABLE", "the held write fails");
      assert.equal(await codeOf(unjournaled), "STORE_UNAVAILABLE", "and so does the answer that rested on it");
      gate = undefined;
      await eventually(() => host.serving());
      assert.equal(await host.read("p", (v) => v.header.generation), 1, "only the stored generation is read");
      await host.close();
    });
  });

  test("recovery probes never overlap, so one cannot close the database under another and leave the store unusable", async () => {
    await withTempDir("crs-corrupt-", async (dir) => {
      const disk = fullDisk();
      const store = await LevelStore.open(dir, { wrapWriter: disk.wrapWriter });
      // Each probe takes longer than the interval between probes.
      const probe = store.probe.bind(store);
      let running = 0;
      let most = 0;
      let probes = 0;
      store.probe = async () => {
        running += 1;
        most = Math.max(most, running);
        try {
          await new Promise((resolve) => setTimeout(resolve, 15));
          probes += 1;
          if (probes === 3) disk.full = false;
          await probe();
        } finally {
          running -= 1;
        }
      };
      const host = new StoreHost(store, { probeIntervalMs: 1 });
      await host.create("p", {});
      disk.full = true;
      assert.equal(await codeOf(host.mutate("p", { method: "Apply" }, similarity("a", "m", 0.5), answerOf)), "STORE_UNAVAILABLE");
      await eventually(() => host.serving());
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(most, 1, "one probe at a time");
      await host.mutate("p", { method: "Apply" }, similarity("b", "m", 0.5), answerOf);
      assert.equal(await host.read("p", (v) => v.header.generation), 1, "the store reads and writes once it serves again");
      await host.close();
    });
  });

  test("a full disk at the store's write boundary fails writes with STORE_UNAVAILABLE, loses nothing acknowledged, and recovers when space returns", async () => {
    await withTempDir("crs-corrupt-", async (dir) => {
      const disk = fullDisk();
      const host = new StoreHost(await LevelStore.open(dir, { wrapWriter: disk.wrapWriter }), { probeIntervalMs: 20 });
      await host.create("p", {});
      await host.create("q", {});
      await host.create("r", { requestId: "make-r" });
      const acked: string[] = [];
      for (let i = 0; i < 3; i++) {
        await host.mutate("p", { method: "Apply" }, similarity(`a${i}`, "m", 0.5), answerOf);
        acked.push(`a${i}`);
      }
      disk.full = true;
      const failed = await Promise.allSettled(
        [0, 1, 2, 3].map((i) => host.mutate(i % 2 === 0 ? "p" : "q", { method: "Apply" }, similarity(`b${i}`, "m", 0.5), answerOf)),
      );
      for (const f of failed) assert.equal(f.status === "rejected" && (f.reason as { code: string }).code, "STORE_UNAVAILABLE");
      assert.equal(host.serving(), false, "NOT_SERVING while the disk is full");
      assert.equal((await host.create("r", { requestId: "make-r" })).replayed, true, "a retried create is answered from the store");
      assert.equal(await codeOf(host.create("s", {})), "STORE_UNAVAILABLE", "a new project needs a write");
      disk.full = false;
      await eventually(() => host.serving());
      assert.equal(host.serving(), true, "serving again once a probe write succeeds");
      await host.mutate("p", { method: "Apply" }, similarity("c", "m", 0.5), answerOf);
      acked.push("c");
      await host.close();
      const again = new StoreHost(await LevelStore.open(dir));
      const present = await again.read("p", (v) => ({
        gen: v.header.generation,
        nodes: [...acked, "b0", "b2"].filter((n) => v.snapshot.similarity.distance(n, "m") !== undefined),
      }));
      assert.deepEqual(present, { gen: 4, nodes: acked }, "every acknowledged mutation and nothing unacknowledged after a restart");
      await again.close();
    });
  });
});

/** The snapshot sequence numbers of a closed store's project, newest first. */
async function snapshotSeqsOf(dir: string, uid: string): Promise<number[]> {
  const store = await LevelStore.open(dir);
  const seqs = (await store.readSnapshots(uid)).map((s) => s.seq);
  await store.close();
  return seqs;
}
