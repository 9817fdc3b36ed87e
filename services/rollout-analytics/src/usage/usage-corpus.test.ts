import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { AnalyticsError } from "../errors.js";
import { writeCorpus } from "../generate/index.js";
import { usageCorpus, type UsageOptions } from "./usage-corpus.js";

test("bad usage options are INVALID_ARGUMENT naming the field, and nothing is read", async () => {
  const cases: [Partial<UsageOptions>, string][] = [
    [{ root: "" }, "root"],
    [{ root: "/definitely/not/here" }, "root"],
    [{ limit: -1 }, "limit"],
    [{ workers: 0 }, "workers"],
    [{ maxLineBytes: 0 }, "maxLineBytes"],
    [{ cacheDir: " " }, "cacheDir"],
  ];
  for (const [bad, field] of cases) {
    await assert.rejects(
      usageCorpus({ root: tmpdir(), cacheDir: false, ...bad }),
      (e: unknown) => e instanceof AnalyticsError && e.code === "INVALID_ARGUMENT" && e.metadata["field"] === field,
      `${JSON.stringify(bad)} names ${field}`,
    );
  }
});

test("an aborted usage read rejects with the signal's reason, on this thread and beside a worker", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "usage-abort-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeCorpus({ dir, seed: 8, files: 12, bigLineShare: 0 });
  for (const workers of [1, 2]) {
    const stop = new AbortController();
    const reason = new Error(`stopped on ${workers}`);
    let seen = 0;
    await assert.rejects(
      usageCorpus({
        root: dir,
        cacheDir: false,
        workers,
        signal: stop.signal,
        onProgress: () => {
          seen += 1;
          if (seen === 2) stop.abort(reason);
        },
      }),
      (e: unknown) => e === reason,
      `${workers} thread(s)`,
    );
    assert.ok(seen < 12, `the read stopped early on ${workers} thread(s): ${seen} files`);
  }
});
