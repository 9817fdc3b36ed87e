// Memory bound of the reader: a rollout with a 1 GiB line is read in a child process whose heap
// is capped far below the line, so holding the line would crash it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readRolloutFile } from "./read-file.js";
import { runInCappedHeap } from "./test-support.js";

const LINE_BYTES = 1024 ** 3;
const HEAP_CAP_MB = 96;
const RSS_BOUND_MB = 220;

const at = (s: number): string => new Date(Date.UTC(2026, 2, 1, 12, 0, s)).toISOString();
const event = (s: number, payload: object): string => `${JSON.stringify({ timestamp: at(s), type: "event_msg", payload })}\n`;

// Writes meta, a start, a 1 GiB compacted line (in 8 MiB pieces), a completion.
async function writeHugeRollout(path: string): Promise<void> {
  const file = await open(path, "w");
  try {
    await file.write(`${JSON.stringify({ timestamp: at(0), type: "session_meta", payload: { id: "huge", cwd: "/w" } })}\n`);
    await file.write(event(1, { type: "task_started", turn_id: "t1" }));
    const head = `{"timestamp":"${at(2)}","type":"compacted","payload":{"message":"`;
    const tail = '"}}\n';
    await file.write(head);
    const piece = Buffer.alloc(8 * 1024 ** 2, "a");
    let left = LINE_BYTES - head.length - tail.length + 1;
    while (left > 0) {
      const n = Math.min(left, piece.length);
      await file.write(piece, 0, n);
      left -= n;
    }
    await file.write(tail);
    await file.write(event(3, { type: "task_complete", turn_id: "t1", duration_ms: 3000 }));
  } finally {
    await file.close();
  }
}

if (process.env["HUGE_LINE_CHILD"] !== undefined) {
  const { rollout, bytes } = await readRolloutFile(process.env["HUGE_LINE_CHILD"]);
  console.log(
    JSON.stringify({
      bytes,
      kinds: rollout.records.map((r) => r.kind),
      oversized: rollout.oversized,
      lines: rollout.lines,
      rssKb: process.resourceUsage().maxRSS,
    }),
  );
} else {
  test("a rollout with a 1 GiB line is read in bounded memory, the line classified from its head", async () => {
    const dir = await mkdtemp(join(tmpdir(), "huge-line-"));
    try {
      const path = join(dir, "rollout-huge.jsonl");
      await writeHugeRollout(path);
      const got = runInCappedHeap<{
        bytes: number;
        kinds: string[];
        oversized: number;
        lines: number;
        rssKb: number;
      }>(import.meta.url, HEAP_CAP_MB, { HUGE_LINE_CHILD: path }, "read the file");
      assert.ok(got.bytes > LINE_BYTES, "the whole file was read");
      assert.deepEqual(got.kinds, ["task_started", "compacted", "task_complete"], "the huge line is a compacted record between the others");
      assert.deepEqual([got.oversized, got.lines], [1, 4], "one oversized line of four");
      assert.ok(got.rssKb / 1024 < RSS_BOUND_MB, `peak RSS ${(got.rssKb / 1024).toFixed(0)} MB stays under ${RSS_BOUND_MB} MB`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
