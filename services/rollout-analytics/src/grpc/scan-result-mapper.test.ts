import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { collectRollout, mergeAll, partialOfRollout, unreadablePartial, type CorpusPartial } from "@crs/domain/rollout";
import { ScanKind, ScanSchema, type Scan } from "@crs/contracts/gen/crs/analytics/v1/scan_pb";
import { TaskOutcome, ToolClass } from "@crs/contracts/gen/crs/analytics/v1/report_pb";
import { scanReportOf } from "./scan-result-mapper.js";
import { ROLLOUTS_DIR, SKIP_REAL } from "./test-support.js";

const BASE = Date.UTC(2026, 2, 1, 12);
const line = (s: number, type: string, payload: Record<string, unknown>): string =>
  JSON.stringify({ timestamp: new Date(BASE + s * 1000).toISOString(), type, payload });
const event = (s: number, type: string, fields: Record<string, unknown> = {}): string => line(s, "event_msg", { type, ...fields });
const meta = (id: string, version: string): string =>
  line(0, "session_meta", { id, cwd: "/w", cli_version: version, model_provider: "openai" });

function partialOf(lines: string[], session: string): CorpusPartial {
  return partialOfRollout({ rollout: collectRollout(lines), fresh: false, session });
}

// A corpus touching every report: a gap, a duplicate terminal, an orphan, an open tail, a failing
// call, an unknown event type, a torn tail, implicit turns and a task with no first token.
function corpus(): CorpusPartial {
  return mergeAll([
    partialOf(
      [
        meta("a", "0.135.0"),
        event(0, "task_started", { turn_id: "t1" }),
        event(1, "task_started", { turn_id: "t2" }),
        line(2, "response_item", { type: "function_call", name: "shell_command", arguments: '{"command":"make"}', call_id: "c1" }),
        line(4, "response_item", { type: "function_call_output", call_id: "c1", output: "Exit code: 2\nWall time: 2 seconds\nOutput:\n" }),
        event(5, "task_complete", { turn_id: "t2", last_agent_message: "HTTP 503 from upstream" }),
        event(6, "task_complete", { turn_id: "t2" }),
        event(7, "item_completed"),
        event(8, "task_started", { turn_id: "t3" }),
        event(9, "turn_aborted", { turn_id: "zz", reason: "interrupted" }),
        '{"timestamp":"2026-03-01T12:00:10Z","ty',
      ],
      "a",
    ),
    partialOf(
      [
        meta("b", "0.40.0"),
        event(0, "user_message", { message: "hi" }),
        event(2, "agent_message", { message: "ok" }),
        event(3, "user_message", { message: "more" }),
      ],
      "b",
    ),
    partialOf([meta("c", "0.135.0"), event(0, "task_started", { turn_id: "slow" }), event(30, "task_complete", { turn_id: "slow" })], "c"),
    unreadablePartial(),
  ]);
}

// The typed result survives the wire, as a GetScan answer would carry it.
function onWire(kind: ScanKind, partial: CorpusPartial): { scan: Scan; json: Record<string, unknown> } {
  const report = scanReportOf(kind, partial, { root: "/sessions", topN: 0 });
  const scan = fromBinary(
    ScanSchema,
    toBinary(ScanSchema, create(ScanSchema, { kind, result: report.result, reportJson: report.reportJson })),
  );
  return { scan, json: JSON.parse(scan.reportJson) as Record<string, unknown> };
}

test("a lifecycle scan result carries the count rows, implicit and errored columns included", () => {
  const { scan, json } = onWire(ScanKind.LIFECYCLE, corpus());
  assert.equal(scan.result.case, "lifecycle", "oneof case");
  const r = scan.result.case === "lifecycle" ? scan.result.value : undefined;
  assert.deepEqual([r?.root, r?.scanned, r?.unreadable, r?.allStartsTyped], ["/sessions", 3n, 1n, true], "header");
  const t = r?.totals;
  assert.deepEqual(
    [t?.starts, t?.superseded, t?.complete, t?.processDeath, t?.orphans, t?.multiplyTerminated, t?.implicit, t?.implicitUnterminated],
    [6n, 1n, 3n, 2n, 1n, 1n, 2n, 1n],
    "totals",
  );
  assert.deepEqual(
    Object.keys(r?.byProviderVersion ?? {}).sort(),
    Object.keys(json["by_provider_version"] as object),
    "the same rows as the JSON",
  );
});

test("an analytics scan result leaves an unobserved outlier TTFT absent instead of -0.001", () => {
  const { scan } = onWire(ScanKind.ANALYTICS, corpus());
  const r = scan.result.case === "analytics" ? scan.result.value : undefined;
  const slow = r?.topTasks.find((t) => t.turnId === "slow");
  assert.deepEqual([slow?.outcome, slow?.durationS, slow?.ttftS], [TaskOutcome.COMPLETE, 30, undefined], "no first token: absent");
  const t2 = r?.topTasks.find((t) => t.turnId === "t2");
  assert.equal(t2?.ttftS, 1, "an observed TTFT is present");
  assert.deepEqual(
    r?.reasons.map((row) => [row.toolClass, row.reason, row.count]),
    [[ToolClass.FAILURE, "exit_2", 1n]],
    "ranked reasons",
  );
});

test("reconcile, error-class and post-tool scan results carry the reference's figures, negative deltas included", () => {
  const rec = onWire(ScanKind.RECONCILE, corpus());
  const r = rec.scan.result.case === "reconcile" ? rec.scan.result.value : undefined;
  const t = r?.totals;
  assert.deepEqual(
    [t?.taskStarted, t?.taskComplete, t?.turnAborted, t?.rawUnaccounted, t?.closedTotal, t?.residualUnaccounted, t?.implicit],
    [4n, 3n, 1n, 0n, 4n, 0n, 2n],
    "raw and folded: every written start closed, the implicit turns apart",
  );
  assert.deepEqual([t?.superseded, t?.processDeath, t?.complete], [1n, 1n, 2n], "folded columns of written starts");
  const dup = onWire(
    ScanKind.RECONCILE,
    partialOf(
      [
        meta("d", "1"),
        event(0, "task_started", { turn_id: "x" }),
        event(1, "task_complete", { turn_id: "x" }),
        event(2, "task_complete", { turn_id: "x" }),
      ],
      "d",
    ),
  );
  const d = dup.scan.result.case === "reconcile" ? dup.scan.result.value.totals : undefined;
  assert.deepEqual([d?.rawUnaccounted, d?.rawUnaccountedPct], [-1n, -100], "a duplicate terminal drives the raw delta negative");
  const err = onWire(ScanKind.ERROR_CLASS, corpus());
  const e = err.scan.result.case === "errorClass" ? err.scan.result.value : undefined;
  assert.deepEqual(
    [
      e?.sessions,
      e?.unreadable,
      e?.unknownPayloadTotal,
      e?.rolloutsWithUnknown,
      e?.tornTailRollouts,
      e?.turnAborted,
      e?.taskComplete,
      e?.terminalsWithClass,
    ],
    [3n, 1n, 4n, 2n, 1n, 1n, 3n, 1n],
    "census figures: item_completed, user_message and agent_message are outside the interpreted set",
  );
  assert.deepEqual(e?.providerErrorClasses, { http_5xx: 1n }, "status classes");
  assert.equal(err.json["unknown_payload_total"], 4, "report_json in the reference's names");
  const post = onWire(ScanKind.POST_TOOL, corpus());
  const p = post.scan.result.case === "postTool" ? post.scan.result.value : undefined;
  assert.deepEqual([p?.schema, p?.spans], ["fak-codex-posttool/1", 1n], "one span");
  assert.equal(p?.byOrdinalBucket["1_20"]?.n, 1n, "percentiles per bucket");
});

test("a post-tool scan result carries every count of the report JSON, so a gRPC client need not parse it", () => {
  const call = (s: number, id: string): string =>
    line(s, "response_item", { type: "function_call", name: "exec_command", arguments: '{"cmd":"make"}', call_id: id });
  const output = (s: number, id: string): string =>
    line(s, "response_item", { type: "function_call_output", call_id: id, output: "Process exited with code 0\nOutput:\n" });
  const tokens = (s: number, input: number): string =>
    line(s, "event_msg", { type: "token_count", info: { last_token_usage: { input_tokens: input } } });
  const partial = mergeAll([
    partialOf(
      [
        meta("p", "0.135.0"),
        event(0, "task_started", { turn_id: "t" }),
        call(1, "a"),
        output(3, "a"),
        tokens(20, 5_000),
        call(41, "b"),
        output(42, "b"),
        line(43, "compacted", { message: "" }),
        tokens(400, 150_000),
        event(401, "task_complete", { turn_id: "t" }),
        event(500, "task_started", { turn_id: "u" }),
        call(501, "c"),
        output(502, "c"),
      ],
      "p",
    ),
    unreadablePartial(),
  ]);
  const { scan, json } = onWire(ScanKind.POST_TOOL, partial);
  const p = scan.result.case === "postTool" ? scan.result.value : undefined;
  const counts = [
    json["sessions"],
    json["unreadable"],
    json["spans"],
    json["tail_skipped"],
    json["stall_spans"],
    json["compaction_in_gap"],
  ];
  assert.deepEqual(
    counts,
    [1, 1, 2, 1, 1, 1],
    "the corpus: two spans (one stalled over a compaction), one tail result, one unreadable file",
  );
  assert.deepEqual(
    [p?.sessions, p?.unreadable, p?.spans, p?.tailSkipped, p?.stallSpans, p?.compactionInGap].map(Number),
    counts,
    "the JSON's counts",
  );
  assert.equal(Number(p?.over30s) / Number(p?.spans), json["over30s_share"], "over 30 s, the share's numerator");
  const seconds = (ms: number | undefined): number => (ms ?? Number.NaN) / 1000;
  const gap = json["gap"] as { p50: number; max: number };
  const tool = json["tool_ms"] as { p50: number; max: number };
  assert.deepEqual(
    [seconds(p?.gap?.p50), seconds(p?.gap?.max), seconds(p?.tool?.p50), seconds(p?.tool?.max)],
    [gap.p50, gap.max, tool.p50, tool.max],
    "percentiles over every span, in ms",
  );
  for (const [rows, over, tools] of [
    [json["by_band"], p?.over30sByContextBand, p?.toolByContextBand],
    [json["by_ordinal"], p?.over30sByOrdinalBucket, p?.toolByOrdinalBucket],
  ] as const) {
    const want = (rows as { key: string; over30s: number; tool_p50: number }[]).map((r) => [r.key, r.over30s, r.tool_p50]);
    const got = want.map(([key]) => [key, Number(over?.[key as string]), seconds(tools?.[key as string]?.p50)]);
    assert.deepEqual(got, want, "per row: spans over 30 s and the tool median");
    assert.equal(Object.keys(over ?? {}).length, want.length, "a row per key with spans, no more");
  }
});

test("a health scan result of the real rollouts equals the domain's report", { skip: SKIP_REAL }, () => {
  const partials = readdirSync(ROLLOUTS_DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => partialOf(readFileSync(join(ROLLOUTS_DIR, f), "utf8").split("\n"), f.replace(/\.jsonl$/, "")));
  const { scan, json } = onWire(ScanKind.HEALTH, mergeAll(partials));
  const r = scan.result.case === "health" ? scan.result.value : undefined;
  const totals = json["totals"] as Record<string, number>;
  assert.deepEqual(
    [r?.schema, r?.totals?.turns, r?.totals?.toolCalls, r?.totals?.zeroToolRate],
    [json["schema"], BigInt(totals["turns"] ?? -1), BigInt(totals["tool_calls"] ?? -1), totals["zero_tool_rate"]],
    "totals",
  );
  assert.deepEqual(r?.flags, json["flags"], "flags");
  assert.equal(r?.scannedFiles, 4n, "four files");
});

test("a scan of no report kind is refused naming the field", () => {
  assert.throws(
    () => scanReportOf(ScanKind.UNSPECIFIED, corpus(), { root: "", topN: 0 }),
    (e: unknown) => e instanceof Error && e.message.includes("kind"),
    "kind",
  );
});
