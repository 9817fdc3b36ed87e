import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyPartial } from "@crs/domain/rollout";
import { PartialCache } from "./partial-cache.js";
import { scanCorpus } from "./scan-corpus.js";
import { writeCorpus } from "./test-support.js";

const NOW = Date.UTC(2026, 2, 3);

async function withDir(fn: (base: string) => Promise<void>): Promise<void> {
  const base = await mkdtemp(join(tmpdir(), "prune-"));
  try {
    await fn(base);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

const entries = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();

test("entries written by worker threads are reused, and a rescan drops those of deleted rollouts", async () => {
  await withDir(async (base) => {
    const root = join(base, "sessions");
    const cacheDir = join(base, "cache");
    const written = await writeCorpus(root, { seed: 3, files: 5, shape: () => ({ turns: 2, bodyBytes: 100 }) });
    const first = await scanCorpus({ root, now: NOW, workers: 2, cacheDir });
    assert.equal((await entries(cacheDir)).length, 5, "the workers wrote one entry per file");
    const again = await scanCorpus({ root, now: NOW, workers: 2, cacheDir });
    assert.equal(again.files.reused, 5, "every entry reused");
    assert.deepEqual(again.partial, first.partial, "the same partial from the cache");
    await rm(written[0]?.path ?? "");
    await rm(written[3]?.path ?? "");
    const rescan = await scanCorpus({ root, now: NOW, workers: 1, cacheDir });
    assert.equal(rescan.files.reused, 3, "the remaining files still reuse their entries");
    assert.equal((await entries(cacheDir)).length, 3, "the entries of both deleted files are gone");
  });
});

test("over its size bound the cache loses its least recently written entries first, the current scan's last", async () => {
  await withDir(async (base) => {
    const cacheDir = join(base, "cache");
    const cache = new PartialCache(cacheDir);
    const names = new Map<string, string>();
    const files = ["old", "mid", "new"].map((n) => join(base, `${n}.jsonl`));
    for (const [i, path] of files.entries()) {
      await writeFile(path, "{}\n");
      await cache.put(
        { file: { path, size: 3, mtimeMs: 1 }, fresh: false, maxLineBytes: 1 },
        { partial: emptyPartial(), cwd: "", bytes: 3 },
      );
      // Entries written in the order old, mid, new.
      const [name] = (await entries(cacheDir)).filter((n) => !names.has(n));
      if (name === undefined) assert.fail(`entry ${i} written`);
      names.set(name, path);
      await utimes(join(cacheDir, name), 1000 + i, 1000 + i);
    }
    const sizes = await Promise.all((await entries(cacheDir)).map(async (n) => (await stat(join(cacheDir, n))).size));
    const one = Math.max(...sizes);
    // The bound holds two entries; "old" is part of the current scan, so "mid" goes first.
    const outcome = await cache.prune([files[0] ?? ""], 2 * one);
    assert.deepEqual([outcome.gone, outcome.overCap], [0, 1], "one entry removed for the bound");
    assert.deepEqual((await entries(cacheDir)).map((n) => names.get(n)).sort(), [files[2], files[0]].sort(), "mid removed");
    // A bound below the current scan's own entries removes them too, oldest first.
    await cache.prune([files[0] ?? ""], 1);
    assert.deepEqual(await entries(cacheDir), [], "nothing left under a bound of one byte");
  });
});
