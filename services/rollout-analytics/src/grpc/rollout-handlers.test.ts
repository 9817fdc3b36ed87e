import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { toJson } from "@bufbuild/protobuf";
import { collectRollout, foldRecords, foldReportJson, rolloutAnalyticsJson, sessionHealth, sessionHealthJson } from "@crs/domain/rollout";
import { AnalyzeRolloutResponseSchema, type AnalyzeRolloutResponse } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";
import { TaskOutcome, ToolClass } from "@crs/contracts/gen/crs/analytics/v1/report_pb";
import { NOW_MS, ROLLOUTS_DIR, SKIP_REAL, uploadStream, withService, type RolloutClient } from "./test-support.js";

const UNIFIED = "localpush-rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl";
const EXEC = "agent-history-codex-session-01.jsonl";
const OPEN_TAIL = "localpush-rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl";

const read = (name: string): Buffer => readFileSync(join(ROLLOUTS_DIR, name));
const json = (r: AnalyzeRolloutResponse): unknown => toJson(AnalyzeRolloutResponseSchema, r);

// What the domain computes from the whole file at once, as the reference reads it.
function expected(content: Buffer, session: string, fresh = false) {
  const rollout = collectRollout(content.toString("utf8").split("\n"));
  const folded = foldRecords({ meta: rollout.meta, records: rollout.records, fresh });
  const { analytics } = folded;
  const health = sessionHealth(session, folded);
  const report = {
    lifecycle: foldReportJson(analytics.lifecycle),
    analytics: rolloutAnalyticsJson(analytics),
    health: sessionHealthJson(health),
  };
  return { rollout, analytics, health, report: JSON.parse(JSON.stringify(report)) as unknown };
}

async function analyze(client: RolloutClient, content: Uint8Array, chunkBytes: number, fileName: string): Promise<AnalyzeRolloutResponse> {
  return client.analyzeRollout(uploadStream(content, chunkBytes, { fileName, includeHealth: true, includeReportJson: true }));
}

test("a real rollout uploaded in 1,000-byte chunks reports what the domain computes from the whole file", { skip: SKIP_REAL }, async () => {
  const content = read(UNIFIED);
  const want = expected(content, UNIFIED.replace(/\.jsonl$/, ""));
  await withService({}, async (client) => {
    const got = await analyze(client, content, 1_000, UNIFIED);
    assert.deepEqual(JSON.parse(got.reportJson), want.report, "report_json equals the domain's JSON reports");
    assert.deepEqual(
      [got.upload?.bytesReceived, got.upload?.sha256, got.upload?.lines, got.upload?.linesSkipped],
      [BigInt(content.length), createHash("sha256").update(content).digest("hex"), BigInt(want.rollout.lines), 0n],
      // Its skipped lines are all of types the fold ignores by design; none fails to decode.
      "upload stats match the file",
    );
    assert.equal(got.upload?.sha256.slice(0, 16), "373acbc9d9961dcc", "the published hash of the file");
    assert.deepEqual([got.upload?.bytesReceived, got.upload?.lines], [132_077n, 417n], "the published size and line count");
    assert.equal(got.meta?.rolloutId, want.analytics.meta.rolloutId, "meta from the first session_meta");
    assert.equal(got.fresh, false, "no freshness window means stale");
    const a = got.analytics;
    assert.deepEqual([a?.tasks.length, a?.calls, got.lifecycle?.tasks.length], [1, 118n, 1], "one task with 118 tool calls");
    assert.deepEqual(
      a?.tasks.map((t) => [t.turnId, t.outcome, t.wallMs, t.toolMs, t.modelMs, t.ttftMs, t.toolCalls]),
      want.analytics.tasks.map((t) => [
        t.turnId,
        TaskOutcome.COMPLETE,
        BigInt(t.wallMs),
        BigInt(t.toolMs),
        BigInt(t.modelMs),
        BigInt(t.ttftMs),
        BigInt(t.toolCalls),
      ]),
      "typed task figures equal the domain's",
    );
    assert.equal(a?.tasks[0]?.wallMs, 311_377n, "the 311 s turn");
    assert.deepEqual(a?.tasks[0]?.classes, { ok: 118n }, "every call ok");
    assert.ok(
      a?.outcomes.every((o) => o.toolClass === ToolClass.OK),
      "typed call classes",
    );
    assert.equal(a?.outcomes.length, want.analytics.outcomes.length, "one outcome per call");
    assert.deepEqual(
      [got.health?.turns, got.health?.toolCalls, got.health?.compactions],
      [1n, 118n, want.health.compactions.map(BigInt)],
      "health",
    );
    assert.equal(got.census?.payloadTypes["token_count"], 56n, "census counts token_count events");
    assert.deepEqual(
      got.census?.payloadTypes,
      Object.fromEntries(Object.entries(want.rollout.payloadTypes).map(([k, v]) => [k, BigInt(v)])),
      "census",
    );
    assert.equal(got.census?.tornTail, false, "no torn tail");
  });
});

test("every real rollout gives the same answer in one chunk and in 7-byte chunks", { skip: SKIP_REAL }, async () => {
  const names = readdirSync(ROLLOUTS_DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  assert.equal(names.length, 4, "four real rollouts");
  await withService({}, async (client) => {
    for (const name of names) {
      const content = read(name);
      const whole = await analyze(client, content, content.length, name);
      const small = await analyze(client, content, 7, name);
      assert.deepEqual(json(small), json(whole), `${name}: chunking changes nothing`);
      assert.deepEqual(
        JSON.parse(whole.reportJson),
        expected(content, name.replace(/\.jsonl$/, "")).report,
        `${name}: equals the domain's reports`,
      );
    }
  });
});

test("multi-byte characters split across chunks, CRLF endings and a final line without newline fold the same", {
  skip: SKIP_REAL,
}, async () => {
  const [first, ...rest] = read(EXEC).toString("utf8").split("\n");
  const meta = JSON.parse(first ?? "") as { payload: { cwd: string } };
  meta.payload.cwd = "/home/dév/项目/🚀";
  const lf = [JSON.stringify(meta), ...rest].join("\n");
  const want = expected(Buffer.from(lf), "s");
  const variants = { lf, crlf: lf.replace(/\n/g, "\r\n"), unterminated: lf.replace(/\n$/, "") };
  await withService({}, async (client) => {
    for (const [label, text] of Object.entries(variants)) {
      for (const size of [3, 1_000]) {
        const got = await analyze(client, Buffer.from(text), size, "s.jsonl");
        assert.equal(got.meta?.cwd, "/home/dév/项目/🚀", `${label}/${size}: characters survive`);
        assert.deepEqual(JSON.parse(got.reportJson), want.report, `${label}/${size}: same reports`);
        assert.equal(got.upload?.lines, BigInt(want.rollout.lines), `${label}/${size}: same lines`);
      }
    }
  });
});

test("an upload cut in two at any byte, inside a character, a CRLF or a line over the limit, answers as one chunk", async () => {
  const at = (s: number): string => `2026-03-01T12:00:0${s}.000Z`;
  const line = (s: number, type: string, payload: Record<string, unknown>): string => JSON.stringify({ timestamp: at(s), type, payload });
  const lines = [
    line(0, "session_meta", { id: "r1", cwd: "/home/dév/项目/🚀", model_provider: "openai" }),
    line(1, "event_msg", { type: "task_started", turn_id: "t1" }),
    line(2, "response_item", { type: "function_call", call_id: "c1", name: "shell", arguments: '{"command":"echo 日本"}' }),
    // Over the 200-byte line limit: counted as skipped, and read from its head, which holds it all.
    line(3, "response_item", { type: "function_call_output", call_id: "c1", output: `Exit code: 1\nOutput:\n${"é".repeat(120)}` }),
    line(4, "event_msg", { type: "task_complete", turn_id: "t1" }),
  ];
  // A byte-order mark, CRLF endings and a torn last line, each of which a cut could split.
  const content = Buffer.from(`\uFEFF${lines.join("\r\n")}\r\n{"timestamp":"${at(5)}","type":"event_msg","payl`);
  await withService({ MAX_LINE_BYTES: "200" }, async (client) => {
    const whole = await client.analyzeRollout(uploadStream(content, content.length));
    assert.deepEqual(
      [whole.upload?.lines, whole.upload?.linesSkipped, whole.census?.tornTail, whole.meta?.cwd, whole.analytics?.outcomes[0]?.reason],
      [6n, 2n, true, "/home/dév/项目/🚀", "exit_1"],
      "the content exercises every case: a long line read by its head, a torn tail, characters kept",
    );
    for (let cut = 0; cut <= content.length; cut++) {
      const [first] = uploadStream(content, content.length);
      const got = await client.analyzeRollout([
        first!,
        { part: { case: "chunk", value: content.subarray(0, cut) } },
        { part: { case: "chunk", value: content.subarray(cut) } },
      ]);
      assert.deepEqual(json(got), json(whole), `cut at byte ${cut}`);
    }
  });
});

test("freshness comes from the request clock: an open tail is live when fresh and process_death when stale", {
  skip: SKIP_REAL,
}, async () => {
  const content = read(OPEN_TAIL);
  await withService({}, async (client) => {
    const modifiedAtUnixMs = NOW_MS - 60_000n;
    const fresh = await client.analyzeRollout(uploadStream(content, 1_000, { modifiedAtUnixMs, freshWithinMs: 120_000n }));
    const stale = await client.analyzeRollout(uploadStream(content, 1_000, { modifiedAtUnixMs, freshWithinMs: 30_000n }));
    assert.deepEqual(
      [fresh.fresh, fresh.lifecycle?.tasks[0]?.outcome],
      [true, TaskOutcome.LIVE],
      "modified 60 s ago within a 120 s window",
    );
    assert.deepEqual([stale.fresh, stale.lifecycle?.tasks[0]?.outcome], [false, TaskOutcome.PROCESS_DEATH], "outside a 30 s window");
    assert.equal(stale.health, undefined, "health only when asked for");
    assert.equal(stale.reportJson, "", "report_json only when asked for");
  });
});

test("an empty upload yields an empty report with the hash of nothing", async () => {
  await withService({}, async (client) => {
    const got = await client.analyzeRollout(uploadStream(new Uint8Array(0), 1, { includeReportJson: true }));
    assert.deepEqual([got.upload?.bytesReceived, got.upload?.lines, got.analytics?.tasks.length], [0n, 0n, 0], "nothing received");
    assert.equal(got.upload?.sha256, createHash("sha256").digest("hex"), "SHA-256 of no bytes");
    assert.deepEqual(Object.keys(JSON.parse(got.reportJson) as object), ["lifecycle", "analytics"], "no health key without include_health");
  });
});
