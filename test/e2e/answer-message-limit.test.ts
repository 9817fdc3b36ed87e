import { test } from "node:test";
import assert from "node:assert/strict";
import { toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { AnalyzeRolloutResponseSchema, type AnalyzeRolloutRequestSchema } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";
import { rolloutClient } from "../support/clients.js";
import { startServiceProcess } from "../support/service-process.js";

const MiB = 1024 * 1024;
// What an operator might set: below the 3.5 MiB an answer is otherwise allowed, above the answer
// with every listing left out.
const LOWERED = 1 * MiB;
const TASKS = 1_000;
const CALLS_PER_TASK = 5;

const BASE = Date.UTC(2026, 2, 1, 12);
const line = (ms: number, type: string, payload: Record<string, unknown>): string =>
  JSON.stringify({ timestamp: new Date(BASE + ms).toISOString(), type, payload });
const event = (ms: number, type: string, fields: Record<string, unknown> = {}): string => line(ms, "event_msg", { type, ...fields });
// Ids as long as the producer's UUIDs, so the rows weigh what real ones do.
const uuid = (prefix: string, k: number): string => `${prefix}-8f45-7010-8b5d-${k.toString(16).padStart(12, "0")}`;

// 1,000 tasks of five calls each: every list within its cap, the whole answer about 2 MB.
function rollout(): Buffer {
  const out = [line(0, "session_meta", { id: uuid("019c8a4d", 0), cwd: "/w", cli_version: "0.130.0" })];
  for (let k = 0; k < TASKS; k += 1) {
    const id = uuid("019c8a70", k);
    let t = 60_000 + k * 600_000;
    out.push(event(t, "task_started", { turn_id: id }));
    for (let i = 0; i < CALLS_PER_TASK; i += 1) {
      const callId = uuid(`call${i}`, k);
      out.push(
        line((t += 2_000), "response_item", {
          type: "function_call",
          name: "shell_command",
          arguments: '{"command":"true"}',
          call_id: callId,
        }),
        line(t + 1_500, "response_item", {
          type: "function_call_output",
          call_id: callId,
          output: "Exit code: 0\nWall time: 1.5 seconds\nOutput:\n",
        }),
      );
    }
    out.push(event(t + 2_000, "task_complete", { turn_id: id }));
  }
  return Buffer.from(`${out.join("\n")}\n`);
}

// The upload in chunks of 256 KiB, each message well within the lowered limit.
function* upload(content: Buffer): Generator<MessageInitShape<typeof AnalyzeRolloutRequestSchema>> {
  yield {
    part: { case: "upload", value: { projectId: "demo", nowUnixMs: 1_780_000_000_000n, includeHealth: true, includeReportJson: true } },
  };
  for (let i = 0; i < content.length; i += 256 * 1024) yield { part: { case: "chunk", value: content.subarray(i, i + 256 * 1024) } };
}

test("an answer over a lowered message limit leaves out listings to fit it and answers OK, instead of failing RESOURCE_EXHAUSTED", async () => {
  const content = rollout();
  const env = { REDIS_URL: "redis://127.0.0.1:1" };
  // The same upload against the default limit shows that its whole answer is over the lowered one.
  const [lowered, plain] = await Promise.all([
    startServiceProcess("rollout-analytics", { ...env, GRPC_MAX_MESSAGE_BYTES: String(LOWERED) }),
    startServiceProcess("rollout-analytics", env),
  ]);
  const [small, full] = [rolloutClient(lowered.port), rolloutClient(plain.port)];
  try {
    const whole = await full.analyzeRollout(upload(content));
    const wholeBytes = toBinary(AnalyzeRolloutResponseSchema, whole).length;
    assert.deepEqual(whole.listingsOmitted, [], "under the default limit nothing is left out");
    assert.ok(wholeBytes > LOWERED, `the whole answer has ${wholeBytes} bytes, over the lowered limit of ${LOWERED}`);

    const got = await small.analyzeRollout(upload(content));
    const bytes = toBinary(AnalyzeRolloutResponseSchema, got).length;
    assert.ok(bytes <= LOWERED, `the answer has ${bytes} bytes, within GRPC_MAX_MESSAGE_BYTES=${LOWERED}`);
    assert.ok(got.listingsOmitted.length > 0, "listings were left out");
    assert.deepEqual(
      got.listingsOmitted,
      ["report_json", "analytics.outcomes", "analytics.tasks", "lifecycle.tasks"].slice(0, got.listingsOmitted.length),
      "in the guard's fixed order, named",
    );
    assert.equal(got.reportJson, "", "report_json left out first");
    assert.deepEqual(
      [got.analytics?.calls, got.health?.turns, got.health?.toolCalls, got.upload?.bytesReceived],
      [whole.analytics?.calls, whole.health?.turns, whole.health?.toolCalls, BigInt(content.length)],
      "every count still covers the whole rollout",
    );
    assert.deepEqual(
      [got.analytics?.calls, got.health?.turns],
      [BigInt(TASKS * CALLS_PER_TASK), BigInt(TASKS)],
      "the counts are the rollout's",
    );
  } finally {
    small.close();
    full.close();
    await Promise.all([lowered.stop(), plain.stop()]);
  }
});
