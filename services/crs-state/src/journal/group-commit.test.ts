import assert from "node:assert/strict";
import { test } from "node:test";
import { LevelStore } from "../store/level-store.js";
import type { StoreOp } from "../store/project-store.js";
import { FaultStore, enospc, withTempDir } from "../store/test-support.js";
import { GroupCommitter, type BatchReport } from "./group-commit.js";

const encoder = new TextEncoder();

/** A journal record of project `uid` numbered `seq`. */
const record = (uid: string, seq: number): StoreOp[] => [{ op: "append", projectUid: uid, seq, bytes: encoder.encode(`${uid}-${seq}`) }];

/** A committer over a real classic-level store at `dir`, with every batch it reports. */
async function committer(dir: string): Promise<{ store: FaultStore; commits: GroupCommitter; batches: BatchReport[] }> {
  const store = new FaultStore(await LevelStore.open(dir));
  const batches: BatchReport[] = [];
  return { store, commits: new GroupCommitter(store, (r) => batches.push(r)), batches };
}

async function journalOf(store: FaultStore, uid: string): Promise<number[]> {
  const seqs: number[] = [];
  for await (const r of store.readJournal(uid, 0)) seqs.push(r.seq);
  return seqs;
}

test("submissions made in one turn of the event loop share one synced batch", async () => {
  await withTempDir("crs-commit-", async (dir) => {
    const { store, commits, batches } = await committer(dir);
    await Promise.all([1, 2, 3].map((seq) => commits.submit(record("u", seq), "u")));
    assert.deepEqual(
      batches.map((b) => b.submissions),
      [3],
    );
    assert.deepEqual(await journalOf(store, "u"), [1, 2, 3]);
    await store.close();
  });
});

test("a crowd found on waking from idle falls out of step: its first half syncs alone, then the rest, in order", async () => {
  await withTempDir("crs-commit-", async (dir) => {
    const { store, commits, batches } = await committer(dir);
    const order: number[] = [];
    await Promise.all(Array.from({ length: 9 }, (_, i) => commits.submit(record("u", i + 1), "u").then(() => order.push(i + 1))));
    assert.deepEqual(
      batches.map((b) => b.submissions),
      [5, 4],
    );
    assert.deepEqual(order, [1, 2, 3, 4, 5, 6, 7, 8, 9], "acknowledged in submission order");
    assert.deepEqual(await journalOf(store, "u"), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await store.close();
  });
});

test("everything submitted while a batch syncs goes whole into the next batch, without a split", async () => {
  await withTempDir("crs-commit-", async (dir) => {
    const { store, commits, batches } = await committer(dir);
    store.hold();
    const first = commits.submit(record("u", 1), "u");
    await new Promise<void>((resolve) => setImmediate(resolve));
    const rest = Array.from({ length: 8 }, (_, i) => commits.submit(record("u", i + 2), "u"));
    store.release();
    await Promise.all([first, ...rest]);
    assert.deepEqual(
      batches.map((b) => b.submissions),
      [1, 8],
    );
    await store.close();
  });
});

test("a failed first half refuses the rest of its project's crowd unwritten: nothing is built on a lost write", async () => {
  await withTempDir("crs-commit-", async (dir) => {
    const { store, commits, batches } = await committer(dir);
    store.failWith = enospc();
    const outcomes = await Promise.allSettled([
      commits.submit(record("a", 1), "a"),
      commits.submit(record("a", 2), "a"),
      commits.submit(record("a", 3), "a"),
      commits.submit(record("b", 1), "b"),
    ]);
    const reasons = outcomes.map((o) => (o.status === "rejected" ? String((o.reason as Error).message) : "written"));
    assert.match(reasons[0] as string, /write failed/);
    assert.match(reasons[1] as string, /write failed/);
    assert.match(reasons[2] as string, /an earlier write of this project failed/, "refused before any write");
    assert.match(reasons[3] as string, /write failed/, "another project's submission is still tried");
    assert.deepEqual(
      batches.map((b) => b.submissions),
      [2, 1],
    );
    store.failWith = undefined;
    assert.deepEqual(await journalOf(store, "a"), []);
    await store.close();
  });
});
