import assert from "node:assert/strict";
import { test } from "node:test";
import { STATE_DOCUMENT_FORMAT } from "@crs/domain/state";
import { JOURNAL_RECORD_FORMAT, decodeRecord, encodeRecord } from "../journal/index.js";
import { decodeSnapshot, encodeSnapshot } from "../snapshot/index.js";
import { LevelStore } from "../store/level-store.js";
import type { ProjectStore } from "../store/project-store.js";
import { withTempDir } from "../store/test-support.js";
import { answerOf, codeOf, similarity } from "./host-conformance.js";
import { StoreHost } from "./store-host.js";

// The store, counting the reads a project's load makes.
function counted(store: ProjectStore): { store: ProjectStore; reads: () => number } {
  let reads = 0;
  const wrapped = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== "function") return value;
      const read = name === "getMeta" || name === "readSnapshots" || name === "readJournal";
      return (...args: unknown[]) => {
        if (read) reads++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: wrapped, reads: () => reads };
}

test("a project with a journal record in a newer format is refused on every call without being read again", async () => {
  await withTempDir("crs-refused-", async (dir) => {
    const first = new StoreHost(await LevelStore.open(dir));
    const { projectUid } = await first.create("newer", {});
    await first.mutate("newer", { method: "RecordSimilarity" }, similarity("a", "b", 0.5), answerOf);
    await first.create("older", {});
    await first.close();

    const level = await LevelStore.open(dir);
    const journal: { seq: number; bytes: Uint8Array }[] = [];
    for await (const r of level.readJournal(projectUid, 0)) journal.push(r);
    const last = journal.at(-1);
    assert.ok(last !== undefined);
    const decoded = decodeRecord(last.bytes, last.seq);
    assert.ok(decoded.ok);
    const seq = last.seq + 1;
    await level.write([
      { op: "append", projectUid, seq, bytes: encodeRecord({ ...decoded.value, seq, format: JOURNAL_RECORD_FORMAT + 1 }) },
    ]);

    const { store, reads } = counted(level);
    const host = new StoreHost(store);
    try {
      assert.equal(await codeOf(host.project("newer", undefined)), "FORMAT_UNSUPPORTED");
      const afterFirst = reads();
      assert.ok(afterFirst > 0, "the first call read the project");
      for (let i = 0; i < 3; i++) assert.equal(await codeOf(host.project("newer", undefined)), "FORMAT_UNSUPPORTED");
      assert.equal(reads(), afterFirst, "later calls are refused from memory");
      assert.equal((await host.project("older", undefined)).meta.projectId, "older", "another project serves");
      assert.equal(host.lostProjectCount(), 0, "a project in a newer format is not counted as damaged");
    } finally {
      await host.close();
    }
  });
});

test("a project whose newest snapshot holds a state document in a newer format is refused as such, not called damaged or loaded from an older one", async () => {
  await withTempDir("crs-refused-doc-", async (dir) => {
    const first = new StoreHost(await LevelStore.open(dir), { snapshotEveryRecords: 1 });
    const { projectUid } = await first.create("newer", {});
    await first.mutate("newer", { method: "RecordSimilarity" }, similarity("a", "b", 0.5), answerOf);
    await first.close();

    const level = await LevelStore.open(dir);
    const newest = (await level.readSnapshots(projectUid)).sort((a, b) => b.seq - a.seq)[0];
    assert.ok(newest !== undefined && newest.seq > 0, "a snapshot after the change");
    const decoded = decodeSnapshot(newest.bytes, newest.seq, projectUid);
    assert.ok(decoded.ok);
    const document = { ...decoded.value.document, formatVersion: (STATE_DOCUMENT_FORMAT + 1) as 1 };
    const bytes = encodeSnapshot({ ...decoded.value, document });
    await level.write([{ op: "putSnapshot", projectUid, seq: newest.seq, bytes }]);

    const host = new StoreHost(level);
    try {
      assert.equal(await codeOf(host.project("newer", undefined)), "FORMAT_UNSUPPORTED");
      assert.equal(host.lostProjectCount(), 0, "a project in a newer format is not counted as damaged");
    } finally {
      await host.close();
    }
  });
});
