import { test } from "node:test";
import assert from "node:assert/strict";
import { TaskOutcome, TtftSource } from "@crs/contracts/gen/crs/analytics/v1/report_pb";
import { MAX_OUTCOMES } from "./listing-caps.js";
import { uploadStream, withService } from "./test-support.js";

const BASE = Date.UTC(2026, 2, 1, 12);
const line = (s: number, type: string, payload: Record<string, unknown>): string =>
  JSON.stringify({ timestamp: new Date(BASE + s * 1000).toISOString(), type, payload });
const event = (s: number, type: string, fields: Record<string, unknown> = {}): string => line(s, "event_msg", { type, ...fields });
const meta = line(0, "session_meta", { id: "r1", cwd: "/w", cli_version: "0.130.0", model_provider: "openai" });

function rollout(lines: string[]): Buffer {
  return Buffer.from(`${[meta, ...lines].join("\n")}\n`);
}

test("a rollout with more calls than the outcome cap lists the first ones and says it was cut", async () => {
  const calls = MAX_OUTCOMES + 50;
  const body: string[] = [event(0, "task_started", { turn_id: "t" })];
  for (let i = 0; i < calls; i += 1) {
    body.push(
      line(1, "response_item", { type: "function_call", name: "shell_command", arguments: `{"command":"echo ${i}"}`, call_id: `c${i}` }),
    );
    body.push(
      line(1, "response_item", {
        type: "function_call_output",
        call_id: `c${i}`,
        output: "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n",
      }),
    );
  }
  body.push(event(2, "task_complete", { turn_id: "t" }));
  await withService({}, async (client) => {
    const got = await client.analyzeRollout(uploadStream(rollout(body), 1 << 20, { includeReportJson: true }));
    const a = got.analytics;
    assert.deepEqual(
      [a?.calls, a?.outcomes.length, a?.outcomesTruncated],
      [BigInt(calls), MAX_OUTCOMES, true],
      "calls counted in full, outcomes capped",
    );
    assert.equal(a?.tasks[0]?.classes["ok"], BigInt(calls), "per-task classes cover every call");
    const json = JSON.parse(got.reportJson) as { analytics: { calls: number; outcomes: unknown[]; outcomes_truncated?: boolean } };
    assert.deepEqual(
      [json.analytics.calls, json.analytics.outcomes.length, json.analytics.outcomes_truncated],
      [calls, MAX_OUTCOMES, true],
      "report_json capped the same way",
    );
  });
});

test("a rollout within the outcome cap lists every outcome and is not marked cut", async () => {
  const body = [
    event(0, "task_started", { turn_id: "t" }),
    line(1, "response_item", { type: "function_call", name: "shell_command", arguments: '{"command":"ls"}', call_id: "c1" }),
    line(2, "response_item", { type: "function_call_output", call_id: "c1", output: "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n" }),
    event(3, "task_complete", { turn_id: "t" }),
  ];
  await withService({}, async (client) => {
    const got = await client.analyzeRollout(uploadStream(rollout(body), 64, { includeReportJson: true }));
    assert.deepEqual([got.analytics?.outcomes.length, got.analytics?.outcomesTruncated], [1, false], "one outcome, not cut");
    assert.equal("outcomes_truncated" in (JSON.parse(got.reportJson) as { analytics: object }).analytics, false, "no flag in report_json");
  });
});

test("typed tasks carry implicit turns, error classes, repairs, rollbacks and the TTFT source", async () => {
  const body = [
    event(0, "user_message", { message: "hi" }),
    event(1, "agent_message", { message: "hello" }),
    event(2, "task_started", { turn_id: "a" }),
    event(3, "task_started", { turn_id: "b" }),
    event(4, "task_complete", { turn_id: "a", time_to_first_token_ms: 250 }),
    event(5, "error", { message: "secret", codex_error_info: "usage_limit_exceeded" }),
    event(6, "task_started", { turn_id: "c" }),
    event(7, "task_complete", { turn_id: "c" }),
    event(8, "thread_rolled_back", { num_turns: 1 }),
  ];
  await withService({}, async (client) => {
    const got = await client.analyzeRollout(uploadStream(rollout(body), 100, {}));
    const rows = got.lifecycle?.tasks.map((t) => [t.turnId, t.outcome, t.implicit, t.errorClass, t.repaired, t.rolledBack]);
    assert.deepEqual(
      rows,
      [
        ["implicit:1", TaskOutcome.COMPLETE, true, "", false, false],
        ["a", TaskOutcome.COMPLETE, false, "", true, false],
        ["b", TaskOutcome.ABORTED, false, "usage_limit_exceeded", false, false],
        ["c", TaskOutcome.COMPLETE, false, "", false, true],
      ],
      "lifecycle task flags",
    );
    const analytics = got.analytics?.tasks.map((t) => [t.turnId, t.implicit, t.ttftSource, t.ttftMs, t.rolledBack]);
    assert.deepEqual(
      analytics,
      [
        ["implicit:1", true, TtftSource.FIRST_MODEL_RECORD, 1000n, false],
        ["a", false, TtftSource.PRODUCER, 250n, false],
        ["b", false, TtftSource.UNSPECIFIED, -1n, false],
        ["c", false, TtftSource.UNSPECIFIED, -1n, true],
      ],
      "analytics task flags",
    );
  });
});
