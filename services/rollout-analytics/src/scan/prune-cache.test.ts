import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
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

const packs = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.endsWith(".pack")).sort();

// The rollout paths of every entry in the cache, from each pack's index line.
async function entryPaths(dir: string): Promise<string[]> {
  const paths: string[] = [];
  for (const name of await packs(dir)) {
    const index = JSON.parse((await readFile(join(dir, name), "utf8")).split("\n")[0] ?? "") as { paths: string[] };
    paths.push(...index.paths);
  }
  return paths.sort();
}

test("entries written by worker threads are reused, and a rescan drops those of deleted rollouts", async () => {
  await withDir(async (base) => {
    const root = join(base, "sessions");
    const cacheDir = join(base, "cache");
    const written = await writeCorpus(root, { seed: 3, files: 5, shape: () => ({ turns: 2, bodyBytes: 100 }) });
    const first = await scanCorpus({ root, now: NOW, workers: 2, cacheDir });
    assert.equal((await entryPaths(cacheDir)).length, 5, "the workers wrote one entry per file");
    const again = await scanCorpus({ root, now: NOW, workers: 2, cacheDir });
    assert.equal(again.files.reused, 5, "every entry reused");
    assert.deepEqual(again.partial, first.partial, "the same partial from the cache");
    await rm(written[0]?.path ?? "");
    await rm(written[3]?.path ?? "");
    const rescan = await scanCorpus({ root, now: NOW, workers: 1, cacheDir });
    assert.equal(rescan.files.reused, 3, "the remaining files still reuse their entries");
    assert.deepEqual(
      await entryPaths(cacheDir),
      written
        .filter((_, i) => i !== 0 && i !== 3)
        .map((f) => resolve(f.path))
        .sort(),
      "the entries of both deleted files are gone",
    );
  });
});

test("a rescan with one file touched keeps one entry per file: the touched file's old entry is dropped", async () => {
  await withDir(async (base) => {
    const root = join(base, "sessions");
    const cacheDir = join(base, "cache");
    const written = await writeCorpus(root, { seed: 4, files: 6, shape: () => ({ turns: 2, bodyBytes: 100 }) });
    await scanCorpus({ root, now: NOW, workers: 2, cacheDir });
    const touched = written[2]?.path ?? "";
    await utimes(touched, 5000, 5000);
    const rescan = await scanCorpus({ root, now: NOW, workers: 2, cacheDir });
    assert.equal(rescan.files.reused, 5, "all but the touched file reused");
    const paths = await entryPaths(cacheDir);
    assert.deepEqual(paths, [...new Set(paths)], "no rollout has two entries");
    assert.equal(paths.length, 6, "every file has its entry");
    const again = await scanCorpus({ root, now: NOW, workers: 2, cacheDir });
    assert.equal(again.files.reused, 6, "the touched file's new entry is reused");
  });
});

test("over its size bound the cache loses its least recently written packs first, the current scan's last", async () => {
  await withDir(async (base) => {
    const cacheDir = join(base, "cache");
    const cache = new PartialCache(cacheDir);
    const names = new Map<string, string>();
    const files = ["old", "mid", "new"].map((n) => join(base, `${n}.jsonl`));
    for (const [i, path] of files.entries()) {
      await writeFile(path, "{}\n");
      await cache.put([
        {
          key: { file: { path, size: 3, mtimeMs: 1 }, fresh: false, maxLineBytes: 1, outlierKeep: 10 },
          scanJson: JSON.stringify({ partial: emptyPartial(), cwd: "", bytes: 3 }),
        },
      ]);
      // Packs written in the order old, mid, new.
      const [name] = (await packs(cacheDir)).filter((n) => !names.has(n));
      if (name === undefined) assert.fail(`pack ${i} written`);
      names.set(name, path);
      await utimes(join(cacheDir, name), 1000 + i, 1000 + i);
    }
    const sizes = await Promise.all((await packs(cacheDir)).map(async (n) => (await stat(join(cacheDir, n))).size));
    const one = Math.max(...sizes);
    // The bound holds two packs; "old" is part of the current scan, so "mid" goes first.
    const outcome = await cache.prune([files[0] ?? ""], 2 * one);
    assert.deepEqual([outcome.gone, outcome.overCap], [0, 1], "one entry removed for the bound");
    assert.deepEqual((await packs(cacheDir)).map((n) => names.get(n)).sort(), [files[2], files[0]].sort(), "mid removed");
    // A bound below the current scan's own entries removes them too, oldest first.
    await cache.prune([files[0] ?? ""], 1);
    assert.deepEqual(await packs(cacheDir), [], "nothing left under a bound of one byte");
  });
});

test("entry files of the earlier one-file-per-rollout layout and stale temporary files are removed", async () => {
  await withDir(async (base) => {
    const cacheDir = join(base, "cache");
    const root = join(base, "sessions");
    await writeCorpus(root, { seed: 5, files: 2, shape: () => ({ turns: 1, bodyBytes: 50 }) });
    await mkdir(cacheDir, { recursive: true });
    await writeFile(join(cacheDir, `${"ab".repeat(32)}.json`), "{}");
    await writeFile(join(cacheDir, "x.pack.1.tmp"), "");
    await utimes(join(cacheDir, "x.pack.1.tmp"), 1000, 1000);
    await scanCorpus({ root, now: NOW, workers: 1, cacheDir });
    const left = await readdir(cacheDir);
    assert.ok(left.length > 0 && left.every((n) => n.endsWith(".pack")), `only packs left: ${left.join(" ")}`);
  });
});
