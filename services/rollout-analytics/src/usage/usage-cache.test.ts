import assert from "node:assert/strict";
import { appendFile, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { writeCorpus } from "../generate/index.js";
import { usageCacheDir } from "./usage-cache.js";
import { usageCorpus } from "./usage-corpus.js";

async function entries(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
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
  const stored = await entries(usageCacheDir(cacheDir));
  assert.equal(stored.length, files.length, "one entry per file, in its own folder");
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
  for (const name of stored) await writeFile(join(usageCacheDir(cacheDir), name), "{not json", { flag: "r+" });
  await rm(deleted);
  const second = await usageCorpus({ root: store, cacheDir, workers: 1 });
  const fresh = await usageCorpus({ root: store, cacheDir: false, workers: 1 });
  assert.deepEqual(second.usage, fresh.usage, "the cached read equals an uncached one");
  assert.equal(second.files.reused, 0, "no damaged entry was reused");
  assert.ok(second.usage.byDay["2030-01-01"] !== undefined, "the appended reply is counted");
  assert.ok(first.files.scanned === files.length && second.files.scanned === files.length - 1);
  assert.equal((await entries(usageCacheDir(cacheDir))).length, files.length - 1, "the deleted file's entry is pruned");
  const third = await usageCorpus({ root: store, cacheDir, workers: 1 });
  assert.equal(third.files.reused, files.length - 1, "rewritten entries are reused");
  assert.deepEqual(third.usage, fresh.usage);
});
