// Memory bound of the upload fold: 300 MB streamed through RolloutBody in a child process
// whose heap is capped below the upload, so holding the content would crash it. What stays is
// one body-free record per line, so the bound holds for records of a couple of kilobytes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { analyzeRollout, sessionHealth } from "@crs/domain/rollout";
import { RolloutBody } from "./rollout-body.js";

const UPLOAD_BYTES = 300 * 1024 ** 2;
const HEAP_CAP_MB = 192;
const RSS_BOUND_MB = 400;
const OUTPUT_BYTES = 2000;

// A turn of ten calls, each with a 2 KB output body the fold reduces to an envelope.
function turnText(turn: number, startMs: number): string {
  const at = (ms: number): string => new Date(startMs + ms).toISOString();
  const lines = [JSON.stringify({ timestamp: at(0), type: "event_msg", payload: { type: "task_started", turn_id: `t${turn}` } })];
  for (let c = 0; c < 10; c += 1) {
    const id = `c${turn}-${c}`;
    lines.push(
      JSON.stringify({
        timestamp: at(100 + c * 300),
        type: "response_item",
        payload: { type: "function_call", name: "shell", arguments: JSON.stringify({ command: "ls -la" }), call_id: id },
      }),
    );
    lines.push(
      JSON.stringify({
        timestamp: at(200 + c * 300),
        type: "response_item",
        payload: {
          type: "function_call_output",
          call_id: id,
          output: `Exit code: 0\nWall time: 0.1 seconds\nOutput:\n${"x".repeat(OUTPUT_BYTES)}`,
        },
      }),
    );
  }
  lines.push(
    JSON.stringify({ timestamp: at(4000), type: "event_msg", payload: { type: "task_complete", turn_id: `t${turn}`, duration_ms: 4000 } }),
  );
  return `${lines.join("\n")}\n`;
}

if (process.env["UPLOAD_MEMORY_CHILD"] !== undefined) {
  const body = new RolloutBody({ maxRolloutBytes: 2 * UPLOAD_BYTES, maxLineBytes: 64 * 1024 ** 2 }, { sizeBytes: 0, sha256: "" });
  let sent = 0;
  let turn = 0;
  while (sent < UPLOAD_BYTES) {
    // Chunks of about 1 MB, cut mid-line as a client's would be.
    let text = "";
    while (text.length < 1024 ** 2) text += turnText(turn++, Date.UTC(2026, 2, 1) + turn * 5000);
    const chunk = Buffer.from(text);
    body.push(chunk.subarray(0, 1000));
    body.push(chunk.subarray(1000));
    sent += chunk.length;
  }
  const received = body.finish();
  const analytics = analyzeRollout({ meta: received.rollout.meta, records: received.rollout.records, fresh: false });
  const health = sessionHealth("upload", received.rollout.records, analytics);
  console.log(
    JSON.stringify({
      bytes: received.bytes,
      tasks: analytics.tasks.length,
      calls: analytics.calls,
      turns: health.turns,
      rssKb: process.resourceUsage().maxRSS,
    }),
  );
} else {
  test("a 300 MB upload is folded in a heap smaller than the upload: bodies are dropped as they stream", () => {
    const child = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_CAP_MB}`, "--import", "tsx", fileURLToPath(import.meta.url)], {
      env: { ...process.env, UPLOAD_MEMORY_CHILD: "1" },
      encoding: "utf8",
    });
    assert.equal(child.status, 0, `the child folded the upload without running out of memory: ${child.stderr.slice(-1500)}`);
    const got = JSON.parse(child.stdout.trim().split("\n").pop() ?? "{}") as {
      bytes: number;
      tasks: number;
      calls: number;
      turns: number;
      rssKb: number;
    };
    assert.ok(got.bytes >= UPLOAD_BYTES, "the whole upload was read");
    assert.ok(got.tasks > 10_000 && got.calls === got.tasks * 10, `every turn and call folded (${got.tasks} tasks, ${got.calls} calls)`);
    assert.ok(got.rssKb / 1024 < RSS_BOUND_MB, `peak RSS ${(got.rssKb / 1024).toFixed(0)} MB stays under ${RSS_BOUND_MB} MB`);
  });
}
