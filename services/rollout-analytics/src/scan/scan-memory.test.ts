// Memory bound of the scan fold: a 300 MB rollout file of small records (about 200 bytes a line)
// scanned by scanFileSync, as a worker scans it, in a child process whose heap is capped far
// below what one retained record per line would need; a fold that grows with the records crashes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CALLS_PER_TURN, LINES_PER_TURN, smallRecordChunks } from "../reader/small-records.js";
import { scanFileSync } from "./scan-file.js";
import { runInCappedHeap } from "../reader/test-support.js";

const FILE_BYTES = 300 * 1024 ** 2;
const HEAP_CAP_MB = 96;
const RSS_BOUND_MB = 400;

const path = process.env["SCAN_MEMORY_FILE"];
if (path !== undefined) {
  const info = statSync(path);
  const scan = scanFileSync({
    file: { path, size: info.size, mtimeMs: info.mtimeMs },
    fresh: false,
    limits: { maxLineBytes: 64 * 1024 ** 2 },
    cacheDir: null,
    scopeCwd: "",
    outlierKeep: 10,
  });
  const { analytics, health, lifecycle } = scan.partial;
  console.log(
    JSON.stringify({
      bytes: scan.bytes,
      tasks: analytics.tasks,
      calls: analytics.toolCalls,
      ok: analytics.classes.ok ?? 0,
      turns: health.turns,
      complete: lifecycle.totals.complete,
      rssKb: process.resourceUsage().maxRSS,
    }),
  );
} else {
  test("a 300 MB rollout file of small records scans in a heap that could not hold one record per line", () => {
    const dir = mkdtempSync(join(tmpdir(), "scan-memory-"));
    try {
      const file = join(dir, "rollout-small-records.jsonl");
      const fd = openSync(file, "w");
      let lines = 0;
      try {
        for (const { chunk, turns } of smallRecordChunks(FILE_BYTES)) {
          writeSync(fd, chunk);
          lines += turns * LINES_PER_TURN;
        }
      } finally {
        closeSync(fd);
      }
      const got = runInCappedHeap<{
        bytes: number;
        tasks: number;
        calls: number;
        ok: number;
        turns: number;
        complete: number;
        rssKb: number;
      }>(import.meta.url, HEAP_CAP_MB, { SCAN_MEMORY_FILE: file }, "scanned the file");
      assert.ok(got.bytes >= FILE_BYTES && got.bytes / lines < 250, `the whole file of small lines was read (${lines} lines)`);
      assert.equal(got.tasks, lines / LINES_PER_TURN, "every turn folded");
      assert.deepEqual([got.calls, got.ok], [got.tasks * CALLS_PER_TURN, got.tasks * CALLS_PER_TURN], "every call joined and classified");
      assert.deepEqual([got.turns, got.complete], [got.tasks, got.tasks], "health and lifecycle count every turn");
      assert.ok(got.rssKb / 1024 < RSS_BOUND_MB, `peak RSS ${(got.rssKb / 1024).toFixed(0)} MB stays under ${RSS_BOUND_MB} MB`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
