import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { collectRollout, foldRecords, foldReportJson, rolloutAnalyticsJson, sessionHealth, sessionHealthJson } from "@crs/domain/rollout";
import { AnalyzeRolloutResponseSchema, type AnalyzeRolloutResponse } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";
import { AnalyticsError } from "../errors.js";
import { answerBudget, encodedWithinBudget } from "./answer-budget.js";
import { CUT_MARK } from "./answer-labels.js";
import { MAX_ANSWER_BYTES, MAX_CRITICAL, MAX_LABEL_BYTES, MAX_OUTCOMES, MAX_ROWS } from "./listing-caps.js";
import { ROLLOUTS_DIR, SKIP_REAL, uploadStream, withService } from "./test-support.js";

// Every answer here comes through a default grpc-js client (4 MiB receive limit): one over it fails the call.
const BOTH = { includeHealth: true, includeReportJson: true };
const BASE = Date.UTC(2026, 2, 1, 12);
const line = (ms: number, type: string, payload: Record<string, unknown>): string =>
  JSON.stringify({ timestamp: new Date(BASE + ms).toISOString(), type, payload });
const event = (ms: number, type: string, fields: Record<string, unknown> = {}): string => line(ms, "event_msg", { type, ...fields });
const jsonl = (lines: string[]): Buffer => Buffer.from(`${lines.join("\n")}\n`);
const bytesOf = (got: AnalyzeRolloutResponse): number => toBinary(AnalyzeRolloutResponseSchema, got).length;
const utf8 = (s: string): number => Buffer.byteLength(s);

function call(ms: number, id: string, tool: string): string[] {
  return [
    line(ms, "response_item", { type: "function_call", name: tool, arguments: '{"command":"true"}', call_id: id }),
    line(ms + 1500, "response_item", {
      type: "function_call_output",
      call_id: id,
      output: "Exit code: 0\nWall time: 1.5 seconds\nOutput:\n",
    }),
  ];
}

/** What an answer says about its own bounds. */
function flags(got: AnalyzeRolloutResponse) {
  const c = got.census;
  return {
    labels: got.labelsTruncated,
    omitted: got.listingsOmitted,
    census: [c?.payloadTypesTruncated, c?.unknownPayloadTypesTruncated],
    critical: got.analytics?.tasks.some((t) => t.criticalTruncated) ?? false,
  };
}

test("turn ids of 100 KB are listed cut to 256 bytes on a character boundary, so 45 such tasks no longer answer RESOURCE_EXHAUSTED", async () => {
  // Distinct heads; two-byte characters put the cut inside one. Each task is superseded by the
  // next, so every id also stands in the previous task's reason.
  const id = (k: number): string => `${k}:${"é".repeat(50_000)}`;
  const lines = [line(0, "session_meta", { id: "r", cwd: `/${"w".repeat(1_000)}` })];
  for (let k = 0; k < 45; k += 1) lines.push(event(1_000 * (k + 1), "task_started", { turn_id: id(k) }));
  const content = jsonl(lines);
  assert.ok(content.length > 4_500_000, "a 4.5 MB upload");
  await withService({}, async (client) => {
    const got = await client.analyzeRollout(uploadStream(content, 1 << 20, BOTH));
    assert.deepEqual(flags(got), { labels: true, omitted: [], census: [false, false], critical: false }, "only labels were cut");
    // The head, then as many whole two-byte characters as fit before the mark.
    const cut = (head: string): string =>
      `${head}${"é".repeat(Math.floor((MAX_LABEL_BYTES - utf8(CUT_MARK) - utf8(head)) / 2))}${CUT_MARK}`;
    const want = (k: number): string => cut(`${k}:`);
    const listed = got.lifecycle?.tasks.map((t) => t.turnId) ?? [];
    assert.deepEqual(
      listed,
      Array.from({ length: 45 }, (_, k) => want(k)),
      "every task, its id cut whole characters short of 256 bytes",
    );
    assert.ok(
      listed.every((t) => utf8(t) <= MAX_LABEL_BYTES && !t.includes("\uFFFD")),
      "no id over the limit, none with a broken character",
    );
    assert.deepEqual(
      got.analytics?.tasks.map((t) => t.turnId),
      listed,
      "analytics tasks list the same cut ids",
    );
    assert.equal(got.lifecycle?.tasks[0]?.reason, cut("superseded_by_turn:1:"), "a reason naming a long id is cut too");
    const json = JSON.parse(got.reportJson) as { labels_truncated?: boolean; lifecycle: { tasks: { turn_id: string }[] } };
    assert.deepEqual(
      [json.labels_truncated, json.lifecycle.tasks.map((t) => t.turn_id)],
      [true, listed],
      "report_json lists the same text and says labels were cut",
    );
    const cwd = `/${"w".repeat(MAX_LABEL_BYTES - utf8(CUT_MARK) - 1)}${CUT_MARK}`;
    assert.deepEqual([got.meta?.cwd, got.analytics?.meta?.cwd], [cwd, cwd], "meta labels are cut too");
    assert.deepEqual([got.health?.turns, got.health?.superseded], [45n, 44n], "counts cover every task");
    assert.ok(bytesOf(got) < 100_000, `the answer has ${bytesOf(got)} bytes`);
  });
});

test("200,000 distinct payload types list the 1,000 most frequent with exact counts instead of a 12 MB census a default client refuses", async () => {
  const types = 200_000;
  const long = `x${"y".repeat(MAX_LABEL_BYTES)}`;
  const lines = [line(0, "session_meta", { id: "r", cwd: "/w" }), event(1, "task_started", { turn_id: "t" })];
  // Frequent types rank first; a name over the label limit is never listed, however frequent.
  for (let i = 0; i < 5; i += 1) lines.push(event(2, "hot"), event(2, long));
  for (let i = 0; i < 3; i += 1) lines.push(event(2, "warm"));
  for (let k = 0; k < types; k += 1) lines.push(event(3, `type_${k.toString(36)}`));
  lines.push(event(4, "task_complete", { turn_id: "t" }));
  const content = jsonl(lines);
  assert.ok(content.length > 15_000_000, `a ${content.length}-byte upload`);
  await withService({}, async (client) => {
    const got = await client.analyzeRollout(uploadStream(content, 1 << 20));
    const c = got.census;
    assert.deepEqual(flags(got), { labels: false, omitted: [], census: [true, true], critical: false }, "both census maps cut");
    const all = Object.entries(c?.payloadTypes ?? {});
    const unknown = Object.entries(c?.unknownPayloadTypes ?? {});
    assert.deepEqual([all.length, unknown.length], [MAX_ROWS, MAX_ROWS], "each map at the row cap");
    assert.deepEqual(
      [c?.payloadTypes["hot"], c?.payloadTypes["warm"], c?.payloadTypes["task_started"], c?.payloadTypes[long]],
      [5n, 3n, 1n, undefined],
      "the most frequent first, counts exact; the over-long name left out",
    );
    const events = BigInt(lines.length - 1);
    const listedSum = (rows: [string, bigint][]): bigint => rows.reduce((s, [, n]) => s + n, 0n);
    assert.deepEqual(
      [c?.payloadTypesUnlisted, listedSum(all) + (c?.payloadTypesUnlistedEvents ?? 0n)],
      [BigInt(types + 5 - MAX_ROWS), events],
      "what is left out is counted: listed plus unlisted events are every event_msg",
    );
    assert.deepEqual(
      [c?.unknownPayloadTypesUnlisted, listedSum(unknown) + (c?.unknownPayloadTypesUnlistedEvents ?? 0n)],
      [BigInt(types + 3 - MAX_ROWS), events - 2n],
      "the unknown map too (task_started and task_complete are known)",
    );
    assert.ok(bytesOf(got) < 200_000, `the answer has ${bytesOf(got)} bytes`);
  });
});

test("a task calling 20,000 distinct tools lists its 16 longest critical-path rows, not a 5 MB path", async () => {
  const tools = 20_000;
  const tool = (k: number): string => `mcp__server__${"t".repeat(100)}_${k}`;
  const lines = [line(0, "session_meta", { id: "r", cwd: "/w" }), event(1, "task_started", { turn_id: "t" })];
  for (let k = 0; k < tools; k += 1) lines.push(...call(10 + 2_000 * k, `c${k}`, tool(k)));
  lines.push(event(10 + 2_000 * tools, "task_complete", { turn_id: "t" }));
  await withService({}, async (client) => {
    const got = await client.analyzeRollout(uploadStream(jsonl(lines), 1 << 20, BOTH));
    assert.deepEqual(flags(got), { labels: false, omitted: [], census: [false, false], critical: true }, "only the path cut");
    const task = got.analytics?.tasks[0];
    assert.deepEqual([task?.critical.length, task?.criticalTruncated], [MAX_CRITICAL, true], "16 rows, flagged");
    assert.deepEqual(
      [task?.toolCalls, task?.toolMs, got.analytics?.calls, got.analytics?.outcomes.length],
      [BigInt(tools), BigInt(tools * 1_500), BigInt(tools), MAX_OUTCOMES],
      "the task's figures cover every call",
    );
    const json = JSON.parse(got.reportJson) as { analytics: { tasks: { critical: unknown[]; critical_truncated?: boolean }[] } };
    const jsonTask = json.analytics.tasks[0];
    assert.deepEqual([jsonTask?.critical.length, jsonTask?.critical_truncated], [MAX_CRITICAL, true], "report_json cut alike");
    assert.ok(bytesOf(got) < MAX_ANSWER_BYTES, `the answer has ${bytesOf(got)} bytes`);
  });
});

test("an answer over its byte budget after every cap leaves out report_json, then the outcomes, names them, and keeps every count", async () => {
  // 1,000 tasks of five calls, ids and tool names just under the label limit: no label is cut, but
  // 5,000 outcomes of two such labels, typed and in JSON, weigh about 5.6 MB.
  const tasks = MAX_ROWS;
  const long = (head: string, k: number): string => `${head}${k}`.padEnd(MAX_LABEL_BYTES - 8, "-");
  const lines = [line(0, "session_meta", { id: "r", cwd: "/w" })];
  for (let k = 0; k < tasks; k += 1) {
    const id = long("turn", k);
    let t = 1_000 + 60_000 * k;
    lines.push(event(t, "task_started", { turn_id: id }));
    for (let i = 0; i < MAX_OUTCOMES / tasks; i += 1) lines.push(...call((t += 2_000), `c${k}-${i}`, long(`tool${i}`, 0)));
    lines.push(event(t + 100, "task_complete", { turn_id: id }));
  }
  await withService({}, async (client) => {
    const got = await client.analyzeRollout(uploadStream(jsonl(lines), 1 << 20, BOTH));
    assert.deepEqual(
      flags(got),
      { labels: false, omitted: ["report_json", "analytics.outcomes"], census: [false, false], critical: false },
      "the first listings in the fixed order, named",
    );
    assert.deepEqual([got.reportJson, got.analytics?.outcomes.length], ["", 0], "left out whole");
    assert.deepEqual(
      [got.analytics?.tasks.length, got.lifecycle?.tasks.length, got.analytics?.tasks[0]?.critical.length],
      [tasks, tasks, 6],
      "the other listings stay",
    );
    assert.deepEqual(
      [
        got.analytics?.calls,
        got.health?.turns,
        got.health?.toolCalls,
        got.analytics?.outcomesTruncated,
        got.census?.payloadTypes["task_started"],
      ],
      [BigInt(MAX_OUTCOMES), BigInt(tasks), BigInt(MAX_OUTCOMES), false, BigInt(tasks)],
      "counts and totals arrive whole",
    );
    const bytes = bytesOf(got);
    assert.ok(bytes <= MAX_ANSWER_BYTES && bytes > MAX_ANSWER_BYTES / 2, `the answer has ${bytes} bytes, within ${MAX_ANSWER_BYTES}`);
  });
});

test("every real rollout answers as before the byte bounds: no flag, every label and census entry whole", { skip: SKIP_REAL }, async () => {
  const names = readdirSync(ROLLOUTS_DIR).filter((f) => f.endsWith(".jsonl"));
  await withService({}, async (client) => {
    for (const name of names) {
      const content = readFileSync(join(ROLLOUTS_DIR, name));
      const rollout = collectRollout(content.toString("utf8").split("\n"));
      const { analytics: a, ...folded } = foldRecords({ meta: rollout.meta, records: rollout.records, fresh: false });
      const health = sessionHealth(name.replace(/\.jsonl$/, ""), { analytics: a, ...folded });
      const got = await client.analyzeRollout(uploadStream(content, content.length, { fileName: name, ...BOTH }));
      assert.deepEqual(flags(got), { labels: false, omitted: [], census: [false, false], critical: false }, `${name}: no bound applied`);
      assert.deepEqual(
        [
          got.meta?.rolloutId,
          got.meta?.cwd,
          got.lifecycle?.tasks.map((t) => [t.turnId, t.startedAt, t.endedAt, t.reason]),
          got.analytics?.tasks.map((t) => [t.turnId, t.critical.map((c) => c.category)]),
          got.analytics?.outcomes.map((o) => [o.turnId, o.tool, o.reason, o.sig]),
          got.health?.session,
        ],
        [
          a.meta.rolloutId,
          a.meta.cwd,
          a.lifecycle.tasks.map((t) => [t.turnId, t.startedAt, t.endedAt, t.reason]),
          a.tasks.map((t) => [t.turnId, t.critical.map((c) => c.category)]),
          a.outcomes.map((o) => [o.turnId, o.tool, o.reason, o.sig]),
          health.session,
        ],
        `${name}: labels as the domain has them`,
      );
      assert.deepEqual(
        Object.entries(got.census?.payloadTypes ?? {}),
        Object.entries(rollout.payloadTypes).map(([k, v]) => [k, BigInt(v)]),
        `${name}: the whole census, in the same order`,
      );
      const report = { lifecycle: foldReportJson(a.lifecycle), analytics: rolloutAnalyticsJson(a), health: sessionHealthJson(health) };
      assert.equal(got.reportJson, JSON.stringify(report), `${name}: report_json byte for byte the uncapped domain JSON`);
    }
  });
});

const EVERY_LISTING = [
  "report_json",
  "analytics.outcomes",
  "analytics.tasks",
  "lifecycle.tasks",
  "lifecycle.orphans",
  "lifecycle.reused",
  "lifecycle.multiply_terminated",
  "analytics.behavior.repeat_failures",
  "analytics.behavior.success_loops",
  "analytics.behavior.edit_churn",
  "health.compactions",
];

// An answer with every listing the guard may leave out heavier than its name in `listings_omitted`,
// so that each must go, and counts beside them.
function everyListing(): AnalyzeRolloutResponse {
  const many = <T>(item: T): T[] => Array.from({ length: 50 }, () => item);
  const row = {};
  return create(AnalyzeRolloutResponseSchema, {
    reportJson: "{}".padEnd(100),
    analytics: {
      outcomes: many(row),
      tasks: many(row),
      calls: 7n,
      behavior: { repeatFailures: many(row), successLoops: many(row), editChurn: many(row), maxEditChurn: 9n },
    },
    lifecycle: { tasks: many(row), orphans: many(row), reused: many("r"), multiplyTerminated: many("m") },
    health: { compactions: many(5n), turns: 3n },
  });
}

// The size of `everyListing()` with every listing left out and named: the least any budget must allow.
const leastBytes = (): number =>
  toBinary(
    AnalyzeRolloutResponseSchema,
    create(AnalyzeRolloutResponseSchema, {
      analytics: { calls: 7n, behavior: { maxEditChurn: 9n } },
      lifecycle: {},
      health: { turns: 3n },
      listingsOmitted: EVERY_LISTING,
    }),
  ).length;

test("an answer that fits its budget only with every listing left out leaves them all out, in the guard's order, and keeps the rest", () => {
  const got = fromBinary(AnalyzeRolloutResponseSchema, encodedWithinBudget(everyListing(), leastBytes()));
  assert.deepEqual(got.listingsOmitted, EVERY_LISTING);
  assert.equal(got.reportJson, "");
  assert.deepEqual(
    [
      got.analytics?.outcomes.length,
      got.lifecycle?.reused.length,
      got.analytics?.behavior?.editChurn.length,
      got.health?.compactions.length,
    ],
    [0, 0, 0, 0],
  );
  assert.deepEqual([got.analytics?.calls, got.analytics?.behavior?.maxEditChurn, got.health?.turns], [7n, 9n, 3n], "counts stay");
});

test("an answer over its budget even with every listing left out fails ANSWER_TOO_LARGE naming the budget, instead of being sent over it", () => {
  const budget = leastBytes() - 1;
  assert.throws(
    () => encodedWithinBudget(everyListing(), budget),
    (e: unknown) =>
      e instanceof AnalyticsError &&
      e.code === "ANSWER_TOO_LARGE" &&
      e.metadata["limit"] === String(budget) &&
      e.message.includes(`${budget + 1} bytes even with every listing left out`),
  );
});

test("a message limit below 3.5 MiB lowers the answer budget to it less the 5-byte message prefix; a larger one leaves 3.5 MiB", () => {
  const MiB = 1024 * 1024;
  assert.deepEqual([1024, MiB, 3.5 * MiB, 3.5 * MiB + 5, 4 * MiB, 16 * MiB].map(answerBudget), [
    1019,
    MiB - 5,
    3.5 * MiB - 5,
    MAX_ANSWER_BYTES,
    MAX_ANSWER_BYTES,
    MAX_ANSWER_BYTES,
  ]);
});
