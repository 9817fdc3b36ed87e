import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
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
