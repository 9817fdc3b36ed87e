// Memory bound of the upload fold: 300 MB of small records (about 200 bytes a line) streamed
// through RolloutBody in a child process whose heap is capped far below what one retained record
// per line would need (about 1.5 million lines), so a fold that grows with the records crashes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sessionHealth } from "@crs/domain/rollout";
import { CALLS_PER_TURN, LINES_PER_TURN, smallRecordChunks } from "../reader/small-records.js";
import { RolloutBody } from "./rollout-body.js";
import { runInCappedHeap } from "../reader/test-support.js";

const UPLOAD_BYTES = 300 * 1024 ** 2;
const HEAP_CAP_MB = 96;
const RSS_BOUND_MB = 400;
const MAX_LISTED = 1000;

if (process.env["UPLOAD_MEMORY_CHILD"] !== undefined) {
  const body = new RolloutBody(
    { maxRolloutBytes: 2 * UPLOAD_BYTES, maxLineBytes: 64 * 1024 ** 2 },
    { sizeBytes: 0n, sha256: "" },
    MAX_LISTED,
  );
  let lines = 0;
  for (const { chunk, turns } of smallRecordChunks(UPLOAD_BYTES)) {
    // Cut mid-line, as a client's chunks would be.
    body.push(chunk.subarray(0, 1000));
    body.push(chunk.subarray(1000));
    lines += turns * LINES_PER_TURN;
  }
  const received = body.finish();
  const folded = received.fold.finish({ meta: received.census.meta, fresh: false });
  const health = sessionHealth("upload", folded);
  console.log(
    JSON.stringify({
      bytes: received.bytes,
      lines,
      tasks: folded.analytics.tasks.length,
      calls: folded.analytics.calls,
      ok: folded.analytics.callTotals.classes["ok"] ?? 0,
      listed: folded.analytics.outcomes.length,
      truncated: folded.analytics.outcomesTruncated,
      turns: health.turns,
      rssKb: process.resourceUsage().maxRSS,
    }),
  );
} else {
  test("a 300 MB upload of small records folds in a heap that could not hold one record per line", () => {
    const got = runInCappedHeap<{
      bytes: number;
      lines: number;
      tasks: number;
      calls: number;
      ok: number;
      listed: number;
      truncated: boolean;
      turns: number;
      rssKb: number;
    }>(import.meta.url, HEAP_CAP_MB, { UPLOAD_MEMORY_CHILD: "1" }, "folded the upload");
    assert.ok(got.bytes >= UPLOAD_BYTES, "the whole upload was read");
    assert.ok(got.bytes / got.lines < 250, `lines are small (${(got.bytes / got.lines).toFixed(0)} bytes on average)`);
    assert.ok(got.lines > 1_000_000, `over a million lines (${got.lines})`);
    assert.equal(got.calls, got.tasks * CALLS_PER_TURN, "every call folded");
    assert.equal(got.ok, got.calls, "every call joined to its output and classified");
    assert.equal(got.turns, got.tasks, "health counts every turn");
    assert.deepEqual([got.listed, got.truncated], [MAX_LISTED, true], "outcomes listed up to the cap, the rest counted");
    assert.ok(got.rssKb / 1024 < RSS_BOUND_MB, `peak RSS ${(got.rssKb / 1024).toFixed(0)} MB stays under ${RSS_BOUND_MB} MB`);
  });
}
