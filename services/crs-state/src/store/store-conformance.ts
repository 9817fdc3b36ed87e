/**
 * The store contract's conformance suite, written once and run by every implementation in one
 * line (`storeConformance("name", factory)`), abstract-level style; capability flags switch the
 * tests that need them.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ProjectStore, SeqValue } from "./project-store.js";

/** A fresh store, and (for persistent stores) a way to open the same data again after close. */
export interface StoreFixture {
  /** A fresh, empty store. */
  readonly store: ProjectStore;
  /** A new store over the same location; required when `capabilities.persistent`. */
  readonly reopen?: () => Promise<ProjectStore>;
  /** Removes what the fixture made. */
  readonly cleanup: () => Promise<void>;
}

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

async function collect(it: AsyncIterable<SeqValue>): Promise<[number, string][]> {
  const out: [number, string][] = [];
  for await (const v of it) out.push([v.seq, text(v.bytes)]);
  return out;
}

/** Runs the suite against stores made by `factory`. */
export function storeConformance(name: string, factory: () => Promise<StoreFixture>): void {
  const withStore = async (fn: (store: ProjectStore, fx: StoreFixture) => Promise<ProjectStore | void>) => {
    const fx = await factory();
    let store = fx.store;
    try {
      store = (await fn(store, fx)) ?? store;
    } finally {
      await store.close();
      await fx.cleanup();
    }
  };

  describe(`project store conformance: ${name}`, () => {
    test("lists the catalogue in id byte order from after a given id, escaping odd ids", async () => {
      await withStore(async (s) => {
        const ids = ["b", "a", "a:b", "a.b", "weird/ü%"];
        await s.write(ids.map((id) => ({ op: "putMeta", projectId: id, bytes: bytes(`meta ${id}`) })));
        const all = await s.listMeta({ limit: 10 });
        assert.deepEqual(
          all.map((m) => m.projectId),
          ["a", "a.b", "a:b", "b", "weird/ü%"],
          "byte order",
        );
        assert.equal(text((await s.getMeta("weird/ü%"))?.bytes ?? new Uint8Array()), "meta weird/ü%", "odd ids round-trip");
        assert.deepEqual(
          (await s.listMeta({ after: "a.b", limit: 2 })).map((m) => m.projectId),
          ["a:b", "b"],
          "after and limit",
        );
        assert.equal(await s.getMeta("zz"), undefined, "absent id");
      });
    });

    test("reads journal records after a sequence number in order, and lastSeq counts snapshots too", async () => {
      await withStore(async (s) => {
        await s.write([1, 2, 3, 17, 256].map((seq) => ({ op: "append", projectUid: "u1", seq, bytes: bytes(`r${seq}`) })));
        await s.write([{ op: "append", projectUid: "u2", seq: 1, bytes: bytes("other") }]);
        assert.deepEqual(await collect(s.readJournal("u1", 2)), [
          [3, "r3"],
          [17, "r17"],
          [256, "r256"],
        ]);
        assert.equal(await s.lastSeq("u1"), 256);
        await s.write([{ op: "putSnapshot", projectUid: "u1", seq: 300, bytes: bytes("s300") }]);
        assert.equal(await s.lastSeq("u1"), 300, "a snapshot past the journal counts");
        assert.equal(await s.lastSeq("nobody"), 0);
      });
    });

    test("a snapshot write drops the journal range and snapshots it names, atomically with itself", async () => {
      await withStore(async (s) => {
        await s.write([1, 2, 3, 4, 5].map((seq) => ({ op: "append", projectUid: "u", seq, bytes: bytes(`r${seq}`) })));
        await s.write([{ op: "putSnapshot", projectUid: "u", seq: 2, bytes: bytes("s2") }]);
        await s.write([{ op: "putSnapshot", projectUid: "u", seq: 4, bytes: bytes("s4") }]);
        await s.write([
          {
            op: "putSnapshot",
            projectUid: "u",
            seq: 5,
            bytes: bytes("s5"),
            dropSnapshots: [2],
            dropJournal: { fromSeq: 1, throughSeq: 4 },
          },
        ]);
        assert.deepEqual(
          (await s.readSnapshots("u")).map((v) => [v.seq, text(v.bytes)]),
          [
            [5, "s5"],
            [4, "s4"],
          ],
          "newest first",
        );
        assert.deepEqual(await collect(s.readJournal("u", 0)), [[5, "r5"]]);
      });
    });

    test("keeps checkpoints by id and deletes them", async () => {
      await withStore(async (s) => {
        await s.write([
          { op: "putCheckpoint", projectUid: "u", checkpointId: "b", head: bytes("B") },
          { op: "putCheckpoint", projectUid: "u", checkpointId: "a", head: bytes("A") },
        ]);
        assert.deepEqual(
          (await s.listCheckpoints("u")).map((c) => [c.checkpointId, text(c.head)]),
          [
            ["a", "A"],
            ["b", "B"],
          ],
        );
        await s.write([{ op: "deleteCheckpoint", projectUid: "u", checkpointId: "a" }]);
        assert.equal(await s.getCheckpoint("u", "a"), undefined);
        assert.equal(text((await s.getCheckpoint("u", "b"))?.head ?? new Uint8Array()), "B");
      });
    });

    test("lists a checkpoint's head without its body, and reads head and body back together", async () => {
      await withStore(async (s) => {
        const body = "B".repeat(64 * 1024);
        await s.write([{ op: "putCheckpoint", projectUid: "u", checkpointId: "a", head: bytes("head a"), body: bytes(body) }]);
        const [row, ...rest] = await s.listCheckpoints("u");
        assert.deepEqual(rest, []);
        assert.deepEqual(Object.keys(row ?? {}).sort(), ["checkpointId", "head"], "a listed row carries no body");
        assert.equal(text(row?.head ?? new Uint8Array()), "head a");
        const got = await s.getCheckpoint("u", "a");
        assert.equal(text(got?.head ?? new Uint8Array()), "head a");
        assert.equal(text(got?.body ?? new Uint8Array()), body, "the body comes back with its head");
      });
    });

    test("a checkpoint written without a body (the format-1 shape) reads back as written, and an overwrite without one drops the old body", async () => {
      await withStore(async (s) => {
        await s.write([{ op: "putCheckpoint", projectUid: "u", checkpointId: "one", head: bytes("whole checkpoint") }]);
        assert.deepEqual(
          (await s.listCheckpoints("u")).map((c) => [c.checkpointId, text(c.head)]),
          [["one", "whole checkpoint"]],
        );
        const one = await s.getCheckpoint("u", "one");
        assert.equal(text(one?.head ?? new Uint8Array()), "whole checkpoint");
        assert.equal(one?.body, undefined, "no body was written, none is read");
        await s.write([{ op: "putCheckpoint", projectUid: "u", checkpointId: "two", head: bytes("h"), body: bytes("b") }]);
        await s.write([{ op: "putCheckpoint", projectUid: "u", checkpointId: "two", head: bytes("whole") }]);
        assert.equal((await s.getCheckpoint("u", "two"))?.body, undefined, "the old body never pairs with the new head");
      });
    });

    test("deleting a checkpoint deletes its body: the id written again holds only what it was written with", async () => {
      await withStore(async (s) => {
        await s.write([{ op: "putCheckpoint", projectUid: "u", checkpointId: "c", head: bytes("h1"), body: bytes("b1") }]);
        await s.write([{ op: "deleteCheckpoint", projectUid: "u", checkpointId: "c" }]);
        assert.equal(await s.getCheckpoint("u", "c"), undefined);
        assert.equal(await s.countCheckpoints("u"), 0, "a body alone is not a checkpoint");
        await s.write([{ op: "putCheckpoint", projectUid: "u", checkpointId: "c", head: bytes("h2") }]);
        const again = await s.getCheckpoint("u", "c");
        assert.deepEqual([text(again?.head ?? new Uint8Array()), again?.body], ["h2", undefined]);
      });
    });

    test("lists checkpoints a page at a time, so a page never reads the whole project's checkpoints", async () => {
      await withStore(async (s) => {
        const ids = ["a", "a.1", "b", "c:2", "d-9"];
        await s.write(ids.map((id) => ({ op: "putCheckpoint", projectUid: "u", checkpointId: id, head: bytes(id) })));
        await s.write([{ op: "putCheckpoint", projectUid: "v", checkpointId: "a.0", head: bytes("other project") }]);
        const page = async (after: string | undefined, limit: number) =>
          (await s.listCheckpoints("u", { ...(after === undefined ? {} : { after }), limit })).map((c) => c.checkpointId);
        assert.deepEqual(await page(undefined, 2), ["a", "a.1"]);
        assert.deepEqual(await page("a.1", 2), ["b", "c:2"]);
        assert.deepEqual(await page("c:2", 2), ["d-9"]);
        assert.deepEqual(await page("d-9", 2), []);
        assert.deepEqual(await page("a.0", 1), ["a.1"], "after an id that is not there: the next one");
        assert.deepEqual(
          (await s.listCheckpoints("u", { after: "b" })).map((c) => text(c.head)),
          ["c:2", "d-9"],
        );
      });
    });

    test("counts a project's checkpoints alone, following puts, overwrites and deletes", async () => {
      await withStore(async (s) => {
        assert.equal(await s.countCheckpoints("u"), 0, "a project with none");
        await s.write(
          ["a", "b", "weird/ü%"].map((id) => ({ op: "putCheckpoint" as const, projectUid: "u", checkpointId: id, head: bytes(id) })),
        );
        await s.write([{ op: "putCheckpoint", projectUid: "u2", checkpointId: "a", head: bytes("other project") }]);
        // "u" is a prefix of "u2": the count must stop at the project's own range.
        assert.equal(await s.countCheckpoints("u"), 3);
        await s.write([{ op: "putCheckpoint", projectUid: "u", checkpointId: "a", head: bytes("again") }]);
        assert.equal(await s.countCheckpoints("u"), 3, "an overwrite adds none");
        await s.write([{ op: "deleteCheckpoint", projectUid: "u", checkpointId: "b" }]);
        assert.equal(await s.countCheckpoints("u"), 2);
        assert.equal(await s.countCheckpoints("u2"), 1);
      });
    });

    test("keeps backups on their own shelf: a backup never lists, counts or reads as a checkpoint of the same id, nor the reverse", async () => {
      await withStore(async (s) => {
        await s.write([
          { op: "putCheckpoint", projectUid: "u", checkpointId: "same", head: bytes("checkpoint"), body: bytes("cp body") },
          { op: "putCheckpoint", shelf: "backup", projectUid: "u", checkpointId: "same", head: bytes("backup"), body: bytes("bk body") },
          { op: "putCheckpoint", shelf: "backup", projectUid: "u", checkpointId: "only-backup", head: bytes("b2") },
        ]);
        assert.deepEqual(
          (await s.listCheckpoints("u")).map((c) => text(c.head)),
          ["checkpoint"],
        );
        assert.deepEqual(
          (await s.listCheckpoints("u", { shelf: "backup" })).map((c) => c.checkpointId),
          ["only-backup", "same"],
        );
        assert.equal(await s.countCheckpoints("u"), 1);
        assert.equal(await s.countCheckpoints("u", "backup"), 2);
        assert.equal(text((await s.getCheckpoint("u", "same", "backup"))?.body ?? new Uint8Array()), "bk body");
        assert.equal(await s.getCheckpoint("u", "only-backup"), undefined, "not a checkpoint");
        await s.write([{ op: "deleteCheckpoint", shelf: "backup", projectUid: "u", checkpointId: "same" }]);
        assert.equal(text((await s.getCheckpoint("u", "same"))?.head ?? new Uint8Array()), "checkpoint", "the checkpoint stays");
      });
    });

    test("repair cuts records from a sequence number on and keeps them aside", async () => {
      await withStore(async (s) => {
        await s.write([1, 2, 3].map((seq) => ({ op: "append", projectUid: "u", seq, bytes: bytes(`r${seq}`) })));
        assert.equal(await s.cutJournal("u", 2), 2);
        assert.deepEqual(await collect(s.readJournal("u", 0)), [[1, "r1"]]);
        assert.deepEqual(
          (await s.readCut("u")).map((v) => [v.seq, text(v.bytes)]),
          [
            [2, "r2"],
            [3, "r3"],
          ],
        );
        assert.equal(await s.cutJournal("u", 9), 0, "nothing to cut");
      });
    });

    test("deleting a project removes its catalogue entry and, once settled, its records", async () => {
      await withStore(async (s, fx) => {
        await s.write([
          { op: "putMeta", projectId: "p", bytes: bytes("m") },
          { op: "append", projectUid: "u", seq: 1, bytes: bytes("r1") },
          { op: "putCheckpoint", projectUid: "u", checkpointId: "c", head: bytes("c"), body: bytes("body") },
          { op: "putCheckpoint", shelf: "backup", projectUid: "u", checkpointId: "b", head: bytes("b"), body: bytes("body") },
        ]);
        await s.write([{ op: "deleteProject", projectId: "p", projectUid: "u" }]);
        assert.equal(await s.getMeta("p"), undefined, "gone from the catalogue at once");
        let store = s;
        if (fx.reopen !== undefined) {
          await s.close();
          store = await fx.reopen();
        }
        assert.deepEqual(await collect(store.readJournal("u", 0)), [], "records purged");
        assert.deepEqual(await store.listCheckpoints("u"), [], "checkpoints purged");
        assert.equal(await store.getCheckpoint("u", "c"), undefined, "with their bodies");
        assert.equal(await store.countCheckpoints("u", "backup"), 0, "backups purged too");
        return store;
      });
    });

    test("a closed store refuses calls with STORE_UNAVAILABLE", async () => {
      const fx = await factory();
      await fx.store.close();
      await assert.rejects(fx.store.write([{ op: "putMeta", projectId: "p", bytes: bytes("m") }]), { code: "STORE_UNAVAILABLE" });
      await assert.rejects(fx.store.getMeta("p"), { code: "STORE_UNAVAILABLE" });
      await fx.cleanup();
    });

    test("a persistent store keeps every write across close and reopen", async (t) => {
      const fx = await factory();
      if (!fx.store.capabilities.persistent || fx.reopen === undefined) {
        await fx.store.close();
        await fx.cleanup();
        t.skip("not persistent");
        return;
      }
      await fx.store.write([
        { op: "putMeta", projectId: "p", bytes: bytes("m") },
        { op: "append", projectUid: "u", seq: 1, bytes: bytes("r1") },
        { op: "putSnapshot", projectUid: "u", seq: 1, bytes: bytes("s1") },
      ]);
      await fx.store.close();
      const again = await fx.reopen();
      try {
        assert.equal(text((await again.getMeta("p"))?.bytes ?? new Uint8Array()), "m");
        assert.deepEqual(await collect(again.readJournal("u", 0)), [[1, "r1"]]);
        assert.equal((await again.readSnapshots("u")).length, 1);
      } finally {
        await again.close();
        await fx.cleanup();
      }
    });
  });
}
