import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, mkdtemp, readFile, rm, utimes, writeFile, appendFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { collectRollout, emptyPartial, isFresh, mergeAll, partialOfRollout, sessionOfFile, type CorpusPartial } from "@crs/domain/rollout";
import { AnalyticsError } from "../errors.js";
import { scanCorpus } from "./scan-corpus.js";
import { CODE_ID } from "./code-id.js";
import { entryLine, entryText } from "./pack-format.js";
import { writeCorpus, type GeneratedFile } from "./test-support.js";

const NOW = Date.UTC(2026, 2, 3);
// The first file spans several read chunks, so lines cross chunk boundaries.
const SHAPE = (i: number) => (i === 0 ? { turns: 30, bodyBytes: 30_000 } : { turns: 2 + (i % 5), bodyBytes: 200 + 50 * (i % 3) });

async function withCorpus(files: number, fn: (root: string, written: GeneratedFile[], cache: string) => Promise<void>): Promise<void> {
  const base = await mkdtemp(join(tmpdir(), "scan-"));
  try {
    const root = join(base, "sessions");
    const written = await writeCorpus(root, { seed: 7, files, shape: SHAPE });
    await fn(root, written, join(base, "cache"));
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

// What the library reads of one file, whole and decoded line by line.
function libraryInput(path: string, fresh = false) {
  return { rollout: collectRollout(readFileSync(path, "utf8").split("\n")), fresh, session: sessionOfFile(path) };
}

// What the library computes for one file.
function libraryPartial(path: string, fresh: boolean): CorpusPartial {
  return partialOfRollout(libraryInput(path, fresh));
}

test("the scan equals the merge of its per-file results in any sharding and order", async () => {
  await withCorpus(12, async (root, written) => {
    const freshMs = 40 * 3_600_000;
    const scan = await scanCorpus({ root, now: NOW, freshMs, workers: 1, cacheDir: false });
    const fresh = written.map((f) => isFresh({ mtimeMs: f.mtimeMs, nowMs: NOW, freshWithinMs: freshMs }));
    assert.ok(fresh.includes(true) && fresh.includes(false), "fresh and stale files");
    assert.ok(readFileSync(written[0]?.path ?? "").length > 3 * 1024 * 1024, "one file spans several read chunks");
    const perFile = written.map((f, i) => libraryPartial(f.path, fresh[i] === true));
    assert.deepEqual(scan.partial, mergeAll(perFile), "scan equals the merge of the library's per-file partials");
    fc.assert(
      fc.property(
        fc.shuffledSubarray(
          perFile.map((_, i) => i),
          { minLength: perFile.length },
        ),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: perFile.length, maxLength: perFile.length }),
        (order, shardOf) => {
          const shards: CorpusPartial[][] = [[], [], [], []];
          order.forEach((i, k) => shards[shardOf[k] ?? 0]?.push(perFile[i] ?? emptyPartial()));
          assert.deepEqual(mergeAll(shards.map((s) => mergeAll(s))), scan.partial, `order ${order.join(",")}, shards ${shardOf.join(",")}`);
        },
      ),
      { numRuns: 25 },
    );
  });
});

test("worker threads give the same answer as one thread", async () => {
  await withCorpus(6, async (root) => {
    const one = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: false });
    const two = await scanCorpus({ root, now: NOW, workers: 2, cacheDir: false });
    assert.deepEqual(two.partial, one.partial, "same partial");
    assert.deepEqual(two.files, one.files, "same file counts");
  });
});

test("a rescan with one file touched reuses all the others and gives the same report", async () => {
  await withCorpus(8, async (root, written, cache) => {
    const first = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    assert.equal(first.files.reused, 0, "cold cache");
    const touched = written[3];
    assert.ok(touched !== undefined, "file to touch");
    await utimes(touched.path, (touched.mtimeMs + 1000) / 1000, (touched.mtimeMs + 1000) / 1000);
    const second = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    assert.deepEqual([second.files.reused, second.files.scanned], [7, 8], "all but the touched file reused");
    assert.equal(
      second.files.reusedBytes,
      first.files.bytes - (touched === undefined ? 0 : readFileSync(touched.path).length),
      "reused bytes",
    );
    assert.deepEqual(second.partial, first.partial, "same merged partial");
    assert.deepEqual(
      second.perFile.filter((f) => !f.reused).map((f) => f.path),
      [touched.path],
      "only the touched file read",
    );
    // Growing the file changes its size: it is read again and its new content counts.
    await appendFile(
      touched.path,
      `${JSON.stringify({ timestamp: "2026-03-02T00:00:00Z", type: "event_msg", payload: { type: "task_started", turn_id: "late" } })}\n`,
    );
    const third = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    assert.equal(third.files.reused, 7, "grown file read again");
    assert.equal(third.partial.lifecycle.totals.rawStarted, first.partial.lifecycle.totals.rawStarted + 1, "its new start is counted");
  });
});

test("a top N above the default keeps that many slowest tasks, and a cache entry cut shorter is read again", async () => {
  await withCorpus(8, async (root, written, cache) => {
    const cold = (topN: number, workers: number) => scanCorpus({ root, now: NOW, workers, cacheDir: false, topN });
    const wide = await cold(25, 1);
    const candidates = mergeAll(written.map((f) => partialOfRollout({ ...libraryInput(f.path), outlierKeep: 100 }))).analytics.outliers;
    assert.ok(candidates.length > 25, "more candidates than the widest cut");
    assert.deepEqual(wide.partial.analytics.outliers, candidates.slice(0, 25), "the 25 slowest tasks, not the default 10");
    assert.deepEqual((await cold(25, 2)).partial, wide.partial, "worker threads keep as many");
    // The first file has more than 10 tasks, so its entry cut at 10 cannot serve 25; the others
    // hold every candidate they had and serve any cut.
    await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache, topN: 10 });
    const again = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache, topN: 25 });
    assert.deepEqual([again.files.reused, again.partial], [7, wide.partial], "the file cut shorter is read again");
    const narrow = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache, topN: 5 });
    assert.deepEqual([narrow.files.reused, narrow.partial], [8, (await cold(5, 1)).partial], "entries kept wider are cut on reuse");
  });
});

test("a corrupt or foreign cache entry is ignored and recomputed", async () => {
  await withCorpus(3, async (root, _written, cache) => {
    const first = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    const packs = (await readdir(cache)).filter((n) => n.endsWith(".pack"));
    assert.equal(packs.length, 1, "one pack for the files scanned together");
    const pack = join(cache, packs[0] ?? "");
    const [index, a, b, c] = (await readFile(pack, "utf8")).split("\n");
    assert.equal((JSON.parse(index ?? "") as { paths: string[] }).paths.length, 3, "one entry per file");
    const foreign = JSON.parse(entryText(b ?? "") ?? "") as { partialVersion: number };
    foreign.partialVersion = -1;
    await writeFile(pack, [index, `${(a ?? "").slice(0, 40)} torn`, entryLine(JSON.stringify(foreign)), c, ""].join("\n"));
    const second = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    assert.equal(second.files.reused, 1, "only the intact entry reused");
    assert.deepEqual(second.partial, first.partial, "same answer");
    const third = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    assert.equal(third.files.reused, 3, "the bad entries were rewritten");
  });
});

test("a cache entry changed on disk but still whole JSON is read again instead of failing every later scan or adding text to a count", async () => {
  await withCorpus(4, async (root, _written, cache) => {
    const first = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    const packs = (await readdir(cache)).filter((n) => n.endsWith(".pack"));
    const pack = join(cache, packs[0] ?? "");
    const [index, a, b, c, d] = (await readFile(pack, "utf8")).split("\n");
    // The damage keeps the line's checksum, as a flipped bit or a hand edit would.
    const damaged = (line: string | undefined, damage: (p: CorpusPartial) => void): string => {
      const entry = JSON.parse(entryText(line ?? "") ?? "") as { scan: { partial: CorpusPartial } };
      damage(entry.scan.partial);
      return `${(line ?? "").slice(0, 9)}${JSON.stringify(entry)}`;
    };
    const lines = [
      damaged(a, (p) => void ((p as { lifecycle: unknown }).lifecycle = null)),
      damaged(b, (p) => void ((p.lifecycle.totals as unknown as Record<string, unknown>)["rollouts"] = "1")),
      damaged(c, (p) => void ((p.lifecycle as { byProviderVersion: unknown }).byProviderVersion = { "openai 0.1": null })),
      d,
    ];
    await writeFile(pack, [index, ...lines, ""].join("\n"));
    const second = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    assert.equal(second.files.reused, 1, "only the intact entry reused");
    assert.deepEqual(second.partial, first.partial, "same answer");
    const third = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    assert.equal(third.files.reused, 4, "the damaged entries were rewritten");
  });
});

test("a cache entry made by other code is read again, so a changed fold never leaves old results in a report", async () => {
  await withCorpus(2, async (root, _written, cache) => {
    const first = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    const packs = (await readdir(cache)).filter((n) => n.endsWith(".pack"));
    const pack = join(cache, packs[0] ?? "");
    const [index, a, b] = (await readFile(pack, "utf8")).split("\n");
    const older = JSON.parse(entryText(a ?? "") ?? "") as { codeId: string };
    assert.equal(older.codeId, CODE_ID, "an entry names the code that made it");
    older.codeId = "0123456789abcdef";
    await writeFile(pack, [index, entryLine(JSON.stringify(older)), b, ""].join("\n"));
    const second = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    assert.equal(second.files.reused, 1, "only the entry of this code reused");
    assert.deepEqual(second.partial, first.partial);
  });
});

test("cache entries hold no bodies: no command output, message or reasoning text", async () => {
  await withCorpus(3, async (root, _written, cache) => {
    await scanCorpus({ root, now: NOW, workers: 1, cacheDir: cache });
    for (const name of await readdir(cache)) {
      const text = await readFile(join(cache, name), "utf8");
      assert.ok(!text.includes("abcdefghij") && !text.includes("Here is the change"), `${name} carries no body`);
    }
  });
});

test("a file outside the cwd scope is counted as scanned and out of scope, and adds nothing else", async () => {
  await withCorpus(6, async (root, written) => {
    const all = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: false });
    const scoped = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: false, cwd: "/work/app/" });
    const inScope = written.filter((f) => readFileSync(f.path, "utf8").split("\n", 1)[0]?.includes('"cwd":"/work/app"'));
    assert.ok(inScope.length > 0 && inScope.length < written.length, "a mixed corpus");
    assert.deepEqual([scoped.files.scanned, scoped.files.outOfScope], [6, 6 - inScope.length], "counted");
    assert.equal(scoped.partial.outOfScope, 6 - inScope.length, "the partial says so");
    assert.equal(scoped.partial.health.scannedFiles, all.partial.health.scannedFiles, "health still counts them as scanned files");
    const expected = mergeAll(inScope.map((f) => libraryPartial(f.path, false)));
    assert.deepEqual(scoped.partial.lifecycle, expected.lifecycle, "only in-scope rollouts are folded");
    // Workers merge what they read, so they apply the same scope rule.
    const onWorkers = await scanCorpus({ root, now: NOW, workers: 2, cacheDir: false, cwd: "/work/app/" });
    assert.deepEqual([onWorkers.partial, onWorkers.files], [scoped.partial, scoped.files], "the same scoped scan on two workers");
  });
});

test("health rows name a scanned session by its file name without .jsonl, as uploads do", async () => {
  const base = await mkdtemp(join(tmpdir(), "scan-"));
  try {
    // Five turns that call no tool: the session is listed as turn inflation, by name.
    const ev = (s: number, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: new Date(NOW - 3_600_000 + s * 1000).toISOString(), type: "event_msg", payload });
    const lines = [0, 1, 2, 3, 4].flatMap((i) => [
      ev(3 * i, { type: "task_started", turn_id: `t${i}` }),
      ev(3 * i + 1, { type: "agent_message", message: "nothing to do" }),
      ev(3 * i + 2, { type: "task_complete", turn_id: `t${i}` }),
    ]);
    await writeFile(join(base, "rollout-a.jsonl"), `${lines.join("\n")}\n`);
    const scan = await scanCorpus({ root: base, now: NOW, workers: 1, cacheDir: false });
    assert.deepEqual(
      scan.partial.health.inflation.map((r) => r.session),
      ["rollout-a"],
    );
  } finally {
    await rm(base, { recursive: true, force: true });
  }
});

test("an unreadable file is counted and the others still scanned; progress reaches the totals", async () => {
  await withCorpus(4, async (root, written) => {
    const bad = written[1]?.path ?? "";
    await rm(bad);
    await writeFile(bad, "");
    const { symlink } = await import("node:fs/promises");
    await symlink(join(root, "nowhere.jsonl"), join(root, "dangling.jsonl"));
    const seen: number[] = [];
    const scan = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: false, onProgress: (p) => seen.push(p.filesDone) });
    assert.deepEqual([scan.files.scanned, scan.files.unreadable], [4, 1], "dangling link unreadable, empty file scanned");
    assert.equal(scan.partial.unreadable, 1, "the partial counts it");
    assert.deepEqual(seen, [1, 2, 3, 4], "progress per file");
    const newest = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: false, limit: 2 });
    assert.deepEqual(
      [newest.files.scanned, newest.files.unreadable],
      [2, 0],
      "--max keeps the newest files, and an undatable entry is none of them",
    );
  });
});

test("a link leading outside the root is not followed, and the scan says how many it passed over", async () => {
  await withCorpus(2, async (root, written) => {
    const { symlink } = await import("node:fs/promises");
    const outside = join(root, "..", "elsewhere.jsonl");
    await writeFile(outside, await readFile(written[0]?.path ?? ""));
    await symlink(outside, join(root, "escape.jsonl"));
    const scan = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: false });
    assert.deepEqual([scan.files.scanned, scan.files.unreadable, scan.files.linksOutsideRoot], [2, 0, 1]);
  });
});

test("a directory that cannot be listed is reported apart and never folded in as a rollout", {
  skip: process.getuid?.() === 0 ? "root lists a directory of mode 000" : false,
}, async () => {
  await withCorpus(4, async (root) => {
    const { chmod, mkdir } = await import("node:fs/promises");
    const locked = join(root, "locked");
    await mkdir(locked);
    await writeFile(join(locked, "rollout-hidden.jsonl"), "{}\n");
    await chmod(locked, 0o000);
    try {
      const scan = await scanCorpus({ root, now: NOW, workers: 1, cacheDir: false });
      assert.deepEqual(
        [scan.files.scanned, scan.files.unreadable, scan.files.unreadableDirs],
        [4, 0, 1],
        "four scanned, one directory unlisted",
      );
      assert.deepEqual([scan.partial.unreadable, scan.partial.health.scannedFiles], [0, 4], "no unreadable rollout in the reports");
    } finally {
      await chmod(locked, 0o755);
    }
  });
});

test("bad options are INVALID_ARGUMENT or CLOCK_REQUIRED naming the field", async () => {
  const cases: [Parameters<typeof scanCorpus>[0], string][] = [
    [{ root: "", now: NOW }, "root"],
    [{ root: ".", now: 0 }, "now"],
    [{ root: ".", now: NOW, workers: 0 }, "workers"],
    [{ root: ".", now: NOW, limit: -1 }, "limit"],
    [{ root: ".", now: NOW, freshMs: 1.5 }, "freshMs"],
  ];
  for (const [options, field] of cases) {
    await assert.rejects(
      scanCorpus({ ...options, cacheDir: false }),
      (e: unknown) => e instanceof AnalyticsError && e.metadata["field"] === field,
      field,
    );
  }
});

const REAL = resolve(process.env["CODEX_ROLLOUTS_DIR"] ?? join(import.meta.dirname, "../../../../../shared/codex-rollouts-real"));

test("the real rollouts scanned equal what the library computes file by file", {
  skip: existsSync(REAL) ? false : `no real rollouts at ${REAL}`,
}, async () => {
  const scan = await scanCorpus({ root: REAL, now: NOW, workers: 2, cacheDir: false });
  const files = (await readdir(REAL)).filter((n) => n.endsWith(".jsonl"));
  assert.equal(scan.files.scanned, files.length, "every real rollout scanned");
  assert.deepEqual(scan.partial, mergeAll(files.map((n) => libraryPartial(join(REAL, n), false))), "same partial");
});

test("a scan aborted midway rejects with the signal's reason, on one thread or several", async () => {
  await withCorpus(6, async (root) => {
    for (const workers of [1, 2]) {
      const controller = new AbortController();
      const reason = new Error(`stop ${workers}`);
      const scan = scanCorpus({
        root,
        now: NOW,
        workers,
        cacheDir: false,
        signal: controller.signal,
        onProgress: () => controller.abort(reason),
      });
      await assert.rejects(scan, (e: unknown) => e === reason, `workers ${workers}`);
    }
  });
});
