import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_LINE_BYTES } from "../reader/index.js";
import { scanCorpus } from "./scan-corpus.js";

const NOW = Date.UTC(2026, 2, 3);

// A rollout whose tool output is one line just under the default limit, of two-byte text
// (twice the memory per character of ASCII) in a structured body parsed a second time.
function hugeRollout(): string {
  const at = (s: number) => `2026-03-01T00:00:0${s}.000Z`;
  const body = "é".repeat(Math.floor((DEFAULT_MAX_LINE_BYTES - 1024) / 2));
  const output = JSON.stringify({ output: body, metadata: { exit_code: 3, duration_seconds: 1 } });
  const lines = [
    { timestamp: at(0), type: "session_meta", payload: { id: "huge", cwd: "/w" } },
    { timestamp: at(1), type: "event_msg", payload: { type: "task_started", turn_id: "t" } },
    {
      timestamp: at(2),
      type: "response_item",
      payload: { type: "function_call", call_id: "c", name: "shell", arguments: '{"command":["ls"]}' },
    },
    { timestamp: at(3), type: "response_item", payload: { type: "function_call_output", call_id: "c", output } },
    { timestamp: at(4), type: "event_msg", payload: { type: "task_complete", turn_id: "t" } },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

test("worker heaps are bounded yet hold a line just under the limit, read in full on each thread at once", async () => {
  const dir = await mkdtemp(join(tmpdir(), "worker-memory-"));
  try {
    const text = hugeRollout();
    assert.ok(Buffer.byteLength(text) > DEFAULT_MAX_LINE_BYTES * 0.99, "the output line is near the limit");
    await writeFile(join(dir, "rollout-a.jsonl"), text);
    await writeFile(join(dir, "rollout-b.jsonl"), text);
    const scan = await scanCorpus({ root: dir, now: NOW, workers: 2, cacheDir: false });
    assert.deepEqual([scan.files.scanned, scan.files.unreadable], [2, 0], "both files read");
    assert.equal(scan.partial.lifecycle.totals.complete, 2, "both tasks complete");
    assert.equal(scan.partial.analytics.classes["failure"], 2, "each output read in full: exit 3 is a failure");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
