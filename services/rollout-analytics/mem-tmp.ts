import { RolloutBody } from "./src/upload/index.js";
import { analyzeRollout } from "@crs/domain/rollout";
const total = Number(process.argv[2]) * 1024 * 1024;
const body = new RolloutBody({ maxRolloutBytes: 2 ** 40, maxLineBytes: 64 << 20 }, { sizeBytes: 0, sha256: "" });
const base = Date.UTC(2026, 2, 1);
let sent = 0,
  i = 0,
  t = base;
const ts = () => new Date((t += 700)).toISOString();
while (sent < total) {
  const lines: string[] = [];
  for (let k = 0; k < 200; k++, i++) {
    const turn = Math.floor(i / 40);
    switch (i % 40) {
      case 0:
        lines.push(JSON.stringify({ timestamp: ts(), type: "event_msg", payload: { type: "task_started", turn_id: `t${turn}` } }));
        break;
      case 39:
        lines.push(
          JSON.stringify({
            timestamp: ts(),
            type: "event_msg",
            payload: { type: "task_complete", turn_id: `t${turn}`, duration_ms: 27000 },
          }),
        );
        break;
      default:
        if (i % 3 === 0)
          lines.push(
            JSON.stringify({
              timestamp: ts(),
              type: "event_msg",
              payload: { type: "token_count", info: { last_token_usage: { input_tokens: 1000 + (i % 5000) } } },
            }),
          );
        else if (i % 3 === 1)
          lines.push(
            JSON.stringify({
              timestamp: ts(),
              type: "response_item",
              payload: { type: "function_call", name: "shell", arguments: JSON.stringify({ command: "ls -la" }), call_id: `c${i}` },
            }),
          );
        else
          lines.push(
            JSON.stringify({
              timestamp: ts(),
              type: "response_item",
              payload: { type: "function_call_output", call_id: `c${i - 1}`, output: "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nok" },
            }),
          );
    }
  }
  const chunk = Buffer.from(lines.join("\n") + "\n");
  sent += chunk.length;
  body.push(chunk);
}
const got = body.finish();
const m1 = process.memoryUsage().rss;
const a = analyzeRollout({ meta: got.rollout.meta, records: got.rollout.records, fresh: false });
console.log(
  JSON.stringify({
    mb: sent >> 20,
    lines: got.lines,
    records: got.rollout.records.length,
    rssAfterReadMB: m1 >> 20,
    peakMB: process.resourceUsage().maxRSS >> 10,
    tasks: a.tasks.length,
  }),
);
