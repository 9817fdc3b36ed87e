import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ClassicLevel } from "classic-level";
import { CrsStateError } from "../errors.js";
import { LevelStore } from "./level-store.js";
import { storeConformance } from "./store-conformance.js";
import { withTempDir } from "./test-support.js";

storeConformance("classic-level", async () => {
  const dir = await mkdtemp(join(tmpdir(), "crs-store-"));
  return {
    store: await LevelStore.open(dir),
    reopen: () => LevelStore.open(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

test("a store whose lock another process or handle holds is refused at open, naming the held lock", async () => {
  await withTempDir("crs-store-", async (dir) => {
    const first = await LevelStore.open(dir);
    try {
      await assert.rejects(LevelStore.open(dir), (e: unknown) => {
        assert.ok(e instanceof CrsStateError);
        assert.equal(e.code, "STORE_UNAVAILABLE");
        assert.match(
          e.message,
          /cannot open .*: IO error: lock .*LOCK: .*\(another process, or another store in this one, has the directory open\)/,
        );
        return true;
      });
    } finally {
      await first.close();
    }
  });
});

test("a data directory that cannot be made is refused at open, naming why", async () => {
  await withTempDir("crs-store-", async (dir) => {
    const file = join(dir, "a-file");
    await writeFile(file, "");
    await assert.rejects(LevelStore.open(join(file, "data")), (e: unknown) => {
      assert.ok(e instanceof CrsStateError);
      assert.equal(e.code, "STORE_UNAVAILABLE");
      assert.match(e.message, /cannot open .*a-file\/data: ENOTDIR/);
      return true;
    });
  });
});

test("a checkpoint's body lives outside the listed range and is purged with its deleted project", async () => {
  await withTempDir("crs-store-", async (dir) => {
    const store = await LevelStore.open(dir);
    const bytes = (text: string) => new TextEncoder().encode(text);
    await store.write([
      { op: "putMeta", projectId: "p", bytes: bytes("m") },
      { op: "putCheckpoint", projectUid: "u", checkpointId: "c", head: bytes("head"), body: bytes("body") },
    ]);
    await store.write([{ op: "deleteProject", projectId: "p", projectUid: "u" }]);
    await store.close();
    const db = new ClassicLevel<string, Uint8Array>(dir, { keyEncoding: "utf8", valueEncoding: "view" });
    try {
      const left: string[] = [];
      for await (const key of db.keys()) if (key.includes("!u!")) left.push(key);
      assert.deepEqual(left, [], "neither head nor body is left behind");
    } finally {
      await db.close();
    }
  });
});
