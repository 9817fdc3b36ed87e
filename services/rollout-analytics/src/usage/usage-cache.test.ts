import assert from "node:assert/strict";
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { writeCorpus } from "../generate/index.js";
import { CODE_ID } from "../scan/index.js";
import { entryLine, entryText } from "../scan/pack-format.js";
import { usageCacheDir } from "./usage-cache.js";
import { usageCorpus } from "./usage-corpus.js";

// The rollout paths the cache's packs hold entries for, from each pack's index line.
async function packed(dir: string): Promise<{ packs: string[]; paths: string[] }> {
  const packs = (await readdir(dir)).filter((n) => n.endsWith(".pack")).sort();
  const paths: string[] = [];
  for (const name of packs) {
    const index = (await readFile(join(dir, name), "utf8")).split("\n")[0] ?? "";
    paths.push(...(JSON.parse(index) as { paths: string[] }).paths);
  }
  return { packs, paths: paths.sort() };
}

async function rolloutsUnder(dir: string): Promise<string[]> {
  const found = await readdir(dir, { recursive: true, withFileTypes: true });
  return found.filter((e) => e.isFile() && e.name.endsWith(".jsonl")).map((e) => join(e.parentPath, e.name));
}

test("a changed, corrupt or deleted file's cache entry is never reused, and gone files' entries are pruned", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "usage-cache-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, "sessions");
  const cacheDir = join(dir, "cache");
  await writeCorpus({ dir: store, seed: 3, files: 6, bigLineShare: 0 });
  const files = await rolloutsUnder(store);
  const first = await usageCorpus({ root: store, cacheDir, workers: 1 });
  const stored = await packed(usageCacheDir(cacheDir));
  assert.deepEqual(stored.paths, [...files].sort(), "one entry per file, in its own folder");
  assert.equal(stored.packs.length, 1, "the files read together share one pack");
  const [changed, corrupt, deleted] = files;
  assert.ok(changed !== undefined && corrupt !== undefined && deleted !== undefined);
  // A reply of 5,000 new tokens in a new day and session-wide, appended after the cache was written.
  const reply = { input_tokens: 4000, cached_input_tokens: 0, output_tokens: 1000, reasoning_output_tokens: 0, total_tokens: 5000 };
  const line = {
    timestamp: "2030-01-01T00:00:00.000Z",
    type: "event_msg",
    payload: { type: "token_count", info: { last_token_usage: reply } },
  };
  await appendFile(changed, `\n${JSON.stringify(line)}\n`);
  for (const name of stored.packs) await writeFile(join(usageCacheDir(cacheDir), name), "{not json", { flag: "r+" });
  await rm(deleted);
  const second = await usageCorpus({ root: store, cacheDir, workers: 1 });
  const fresh = await usageCorpus({ root: store, cacheDir: false, workers: 1 });
  assert.deepEqual(second.usage, fresh.usage, "the cached read equals an uncached one");
  assert.equal(second.files.reused, 0, "no damaged entry was reused");
  assert.ok(second.usage.byDay["2030-01-01"] !== undefined, "the appended reply is counted");
  assert.ok(first.files.scanned === files.length && second.files.scanned === files.length - 1);
  assert.deepEqual(
    (await packed(usageCacheDir(cacheDir))).paths,
    files.filter((f) => f !== deleted).sort(),
    "the damaged pack is gone and the deleted file has no entry",
  );
  const third = await usageCorpus({ root: store, cacheDir, workers: 1 });
  assert.equal(third.files.reused, files.length - 1, "rewritten entries are reused");
  assert.deepEqual(third.usage, fresh.usage);
});

test("a usage cache entry made by other code is read again, so a changed reader never leaves old figures in a report", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "usage-cache-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, "sessions");
  const cacheDir = join(dir, "cache");
  await writeCorpus({ dir: store, seed: 4, files: 2, bigLineShare: 0 });
  const first = await usageCorpus({ root: store, cacheDir, workers: 1 });
  const [name] = (await packed(usageCacheDir(cacheDir))).packs;
  const pack = join(usageCacheDir(cacheDir), name ?? "");
  const [index, a, b] = (await readFile(pack, "utf8")).split("\n");
  const older = JSON.parse(entryText(a ?? "") ?? "") as { codeId: string };
  assert.equal(older.codeId, CODE_ID, "an entry names the code that made it");
  older.codeId = "0123456789abcdef";
  await writeFile(pack, [index, entryLine(JSON.stringify(older)), b, ""].join("\n"));
  const second = await usageCorpus({ root: store, cacheDir, workers: 1 });
  assert.equal(second.files.reused, 1, "only the entry of this code reused");
  assert.deepEqual(second.usage, first.usage);
});

test("a usage cache entry changed on disk but still whole JSON is read again instead of failing every later read", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "usage-cache-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, "sessions");
  const cacheDir = join(dir, "cache");
  await writeCorpus({ dir: store, seed: 5, files: 3, bigLineShare: 0 });
  const first = await usageCorpus({ root: store, cacheDir, workers: 1 });
  const [name] = (await packed(usageCacheDir(cacheDir))).packs;
  const pack = join(usageCacheDir(cacheDir), name ?? "");
  const [index, a, b, c] = (await readFile(pack, "utf8")).split("\n");
  // The damage keeps the line's checksum, as a flipped bit or a hand edit would.
  const damaged = (line: string | undefined, damage: (usage: Record<string, unknown>) => void): string => {
    const entry = JSON.parse(entryText(line ?? "") ?? "") as { file: { usage: Record<string, unknown> } };
    damage(entry.file.usage);
    return `${(line ?? "").slice(0, 9)}${JSON.stringify(entry)}`;
  };
  const lines = [damaged(a, (u) => void (u.byDay = { "2026-01-01": null })), damaged(b, (u) => void (u.repeats = "0")), c];
  await writeFile(pack, [index, ...lines, ""].join("\n"));
  const second = await usageCorpus({ root: store, cacheDir, workers: 1 });
  assert.equal(second.files.reused, 1, "only the intact entry reused");
  assert.deepEqual(second.usage, first.usage, "same answer");
  const third = await usageCorpus({ root: store, cacheDir, workers: 1 });
  assert.equal(third.files.reused, 3, "the damaged entries were rewritten");
});
