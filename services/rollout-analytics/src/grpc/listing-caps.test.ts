import { test } from "node:test";
import assert from "node:assert/strict";
import { toBinary } from "@bufbuild/protobuf";
import { AnalyzeRolloutResponseSchema, type AnalyzeRolloutResponse } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";
import { MAX_OUTCOMES, MAX_ROWS } from "./listing-caps.js";
import { uploadStream, withService } from "./test-support.js";

// What a grpc-js client accepts when nobody raised its receive limit.
const DEFAULT_CLIENT_RECEIVE_BYTES = 4 * 1024 * 1024;
const ALL_INCLUDES = {
  fileName: "rollout-2026-03-01T12-00-00-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl",
  includeHealth: true,
  includeReportJson: true,
};

const BASE = Date.UTC(2026, 2, 1, 12);
const line = (ms: number, type: string, payload: Record<string, unknown>): string =>
  JSON.stringify({ timestamp: new Date(BASE + ms).toISOString(), type, payload });
const event = (ms: number, type: string, fields: Record<string, unknown> = {}): string => line(ms, "event_msg", { type, ...fields });
// Ids as long as the producer's UUIDs, so the rows weigh what real ones do.
const uuid = (prefix: string, k: number): string => `${prefix}-8f45-7010-8b5d-${k.toString(16).padStart(12, "0")}`;

function call(ms: number, id: string, tool: string, command: string, exit: number): string[] {
  return [
    line(ms, "response_item", { type: "function_call", name: tool, arguments: JSON.stringify({ command }), call_id: id }),
    line(ms + 1500, "response_item", {
      type: "function_call_output",
      call_id: id,
      output: `Exit code: ${exit}\nWall time: 1.5 seconds\nOutput:\n`,
    }),
  ];
}

/** Per task: how often it repeats one failing command, one succeeding command and one patched path. */
interface TaskShape {
  readonly failures: number;
  readonly loops: number;
  readonly patches: number;
}

/**
 * A rollout of `tasks` tasks and as many orphan aborts. Every task is started twice and completed
 * twice (a reused and a multiply terminated id), compacts once, and repeats its own commands as
 * `shape` says: 3 failures make a repeat-failure row, 8 successes a success-loop row, 5 patches
 * of one path an edit-churn row.
 */
function rollout(tasks: number, shape: TaskShape): Buffer {
  const out = [line(0, "session_meta", { id: uuid("019c8a4d", 0), cwd: "/w", cli_version: "0.130.0", model_provider: "openai" })];
  for (let k = 0; k < tasks; k += 1)
    out.push(event(1 + k, "turn_aborted", { turn_id: uuid("0a0a0a0a", k), reason: "interrupted", duration_ms: 1200 }));
  for (let k = 0; k < tasks; k += 1) {
    const id = uuid("019c8a70", k);
    let t = 60_000 + k * 600_000;
    out.push(event(t, "task_started", { turn_id: id }), event(t + 1, "task_started", { turn_id: id }));
    out.push(
      event(t + 2, "token_count", { info: { last_token_usage: { input_tokens: 90_000 + k } } }),
      line(t + 3, "compacted", { message: "" }),
    );
    const commands: [string, string, number, number][] = [
      ["shell_command", `cargo test -p crate${k}`, 1, shape.failures],
      ["shell_command", `rg -n needle${k} src`, 0, shape.loops],
      ["apply_patch", `*** Begin Patch\n*** Update File: src/module${k}/file.ts\n*** End Patch`, 0, shape.patches],
    ];
    for (const [tool, command, exit, times] of commands)
      for (let i = 0; i < times; i += 1) out.push(...call((t += 2000), `c${k}-${out.length}`, tool, command, exit));
    out.push(event(t + 100, "task_complete", { turn_id: id }), event(t + 101, "task_complete", { turn_id: id }));
  }
  return Buffer.from(`${out.join("\n")}\n`);
}

interface Listing {
  lifecycle: Record<string, unknown[] | boolean | undefined>;
  analytics: Record<string, unknown> & { behavior: Record<string, unknown> };
  health: Record<string, unknown>;
}

// Every capped list of one answer, typed and in report_json, with its flag.
function listings(got: AnalyzeRolloutResponse): Record<string, [number, boolean]> {
  const l = got.lifecycle;
  const a = got.analytics;
  const b = a?.behavior;
  const h = got.health;
  const json = JSON.parse(got.reportJson) as Listing;
  const j = (o: Record<string, unknown>, key: string): [number, boolean] => [
    (o[key] as unknown[] | undefined)?.length ?? 0,
    o[`${key}_truncated`] === true,
  ];
  return {
    "lifecycle.tasks": [l?.tasks.length ?? 0, l?.tasksTruncated ?? false],
    "lifecycle.orphans": [l?.orphans.length ?? 0, l?.orphansTruncated ?? false],
    "lifecycle.reused": [l?.reused.length ?? 0, l?.reusedTruncated ?? false],
    "lifecycle.multiply_terminated": [l?.multiplyTerminated.length ?? 0, l?.multiplyTerminatedTruncated ?? false],
    "analytics.tasks": [a?.tasks.length ?? 0, a?.tasksTruncated ?? false],
    "behavior.repeat_failures": [b?.repeatFailures.length ?? 0, b?.repeatFailuresTruncated ?? false],
    "behavior.success_loops": [b?.successLoops.length ?? 0, b?.successLoopsTruncated ?? false],
    "behavior.edit_churn": [b?.editChurn.length ?? 0, b?.editChurnTruncated ?? false],
    "health.compactions": [h?.compactions.length ?? 0, h?.compactionsTruncated ?? false],
    "json lifecycle.tasks": j(json.lifecycle, "tasks"),
    "json lifecycle.orphans": j(json.lifecycle, "orphans"),
    "json lifecycle.reused": j(json.lifecycle, "reused"),
    "json lifecycle.multiply_terminated": j(json.lifecycle, "multiply_terminated"),
    "json analytics.tasks": j(json.analytics, "tasks"),
    "json behavior.repeat_failures": j(json.analytics.behavior, "repeat_failures"),
    "json behavior.success_loops": j(json.analytics.behavior, "success_loops"),
    "json behavior.edit_churn": j(json.analytics.behavior, "edit_churn"),
    "json health.compactions": j(json.health, "compactions"),
  };
}

// One row of every behaviour list per task.
const SHAPE: TaskShape = { failures: 3, loops: 8, patches: 5 };

const every = (names: string[], value: [number, boolean]): Record<string, [number, boolean]> =>
  Object.fromEntries(names.map((n) => [n, value]));

test("a rollout with more tasks and rows than the listing cap answers with the first ones, flags each cut list, and fits a default client", async () => {
  const tasks = MAX_ROWS + 1;
  const calls = tasks * (SHAPE.failures + SHAPE.loops + SHAPE.patches);
  assert.ok(calls > MAX_OUTCOMES, "the outcome list is over its cap too");
  await withService({}, async (client) => {
    // The test client is a default grpc-js client: an answer over its receive limit fails here.
    const got = await client.analyzeRollout(uploadStream(rollout(tasks, SHAPE), 1 << 20, ALL_INCLUDES));
    const listed = listings(got);
    assert.deepEqual(listed, every(Object.keys(listed), [MAX_ROWS, true]), "every list holds exactly the cap and says it was cut");
    assert.deepEqual(
      [got.lifecycle?.tasks.at(-1)?.turnId, got.analytics?.tasks.at(-1)?.turnId, got.lifecycle?.orphans.at(-1)?.turnId],
      [uuid("019c8a70", MAX_ROWS - 1), uuid("019c8a70", MAX_ROWS - 1), uuid("0a0a0a0a", MAX_ROWS - 1)],
      "the first entries in file order",
    );
    assert.deepEqual([got.analytics?.outcomes.length, got.analytics?.outcomesTruncated], [MAX_OUTCOMES, true], "outcomes at their own cap");
    assert.deepEqual(
      [
        got.analytics?.calls,
        got.health?.turns,
        got.health?.toolCalls,
        got.census?.payloadTypes["task_started"],
        got.lifecycle?.substantiveCompleted,
      ],
      [BigInt(calls), BigInt(tasks), BigInt(calls), BigInt(2 * tasks), true],
      "counts cover every task and call",
    );
    assert.deepEqual(
      [got.analytics?.behavior?.maxRepeatFailure, got.analytics?.behavior?.maxSuccessLoop, got.analytics?.behavior?.maxEditChurn],
      [3n, 8n, 5n],
      "behaviour maxima cover every row",
    );
    const bytes = toBinary(AnalyzeRolloutResponseSchema, got).length;
    assert.ok(
      bytes < DEFAULT_CLIENT_RECEIVE_BYTES * 0.75,
      `the answer has ${bytes} bytes, well within a default client's ${DEFAULT_CLIENT_RECEIVE_BYTES}`,
    );
  });
});

test("a rollout with every list at the listing cap lists them whole and flags none", async () => {
  await withService({}, async (client) => {
    const got = await client.analyzeRollout(uploadStream(rollout(MAX_ROWS, SHAPE), 1 << 20, ALL_INCLUDES));
    const listed = listings(got);
    assert.deepEqual(listed, every(Object.keys(listed), [MAX_ROWS, false]), "whole lists, no flag");
  });
});
