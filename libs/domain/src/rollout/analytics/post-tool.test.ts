import { test } from "node:test";
import assert from "node:assert/strict";
import { collectRollout } from "../decode/collect.js";
import { partialOfRollout } from "../corpus/partial.js";
import { postToolReport } from "../report/post-tool-report.js";
import { callLine, compactedLine, completeLine, metaLine, outputLine, startLine, tokenLine, unifiedOutput } from "../testing/lines.js";
import { analyzeRollout } from "./analyze.js";
import { contextBand, ordinalBucket } from "./post-tool.js";

test("post-tool spans are attributed to the tool, a stall, a compaction or the model", () => {
  const d = collectRollout([
    metaLine("m"),
    startLine(0, "t"),
    tokenLine(0.5, 30_000),
    callLine(1, "slow", "exec_command", { cmd: "a" }),
    outputLine(11, "slow", unifiedOutput(0)),
    callLine(12, "stall", "exec_command", { cmd: "b" }),
    outputLine(13, "stall", unifiedOutput(0)),
    callLine(400, "comp", "exec_command", { cmd: "c" }),
    outputLine(401, "comp", unifiedOutput(0)),
    compactedLine(402),
    callLine(410, "think", "exec_command", { cmd: "d" }),
    outputLine(411, "think", unifiedOutput(0)),
    tokenLine(415, 120_000),
    callLine(416, "tail", "exec_command", { cmd: "e" }),
    outputLine(417, "tail", unifiedOutput(0)),
  ]);
  const spans = analyzeRollout({ meta: d.meta, records: d.records, fresh: false }).postTool;
  assert.deepEqual(
    spans.map((s) => [s.ordinal, s.attribution, s.gapMs, s.band]),
    [
      [1, "tool_slow", 1000, "gte100k"],
      [2, "stall_capped", 387000, "gte100k"],
      [3, "compaction_in_gap", 9000, "gte100k"],
      [4, "model_reasoning", 4000, "gte100k"],
    ],
    "attribution, each band from the first reading after the gap, and the tail result without a later model record is skipped",
  );
  const report = postToolReport(partialOfRollout({ rollout: d, fresh: false }), { root: "" });
  assert.equal(report.schema, "fak-codex-posttool/1", "schema");
  assert.deepEqual(report.attribution, { compaction_in_gap: 1, model_reasoning: 1, stall_capped: 1, tool_slow: 1 }, "attribution counts");
  assert.deepEqual(
    report.by_band.map((r) => [r.key, r.n]),
    [["gte100k", 4]],
    "band rows",
  );
  assert.deepEqual(
    report.by_ordinal.map((r) => r.key),
    ["1_20"],
    "bucket",
  );
  assert.equal(report.tail_skipped, 1, "the tail result is counted as skipped");
  const done = collectRollout([startLine(0, "t"), callLine(1, "c", "x", { cmd: "y" }), outputLine(2, "c", "ok"), completeLine(3, "t")]);
  assert.equal(analyzeRollout({ meta: null, records: done.records, fresh: false }).postTool[0]?.gapMs, 1000, "a terminal ends the gap");
});

test("banding a span by the reading before its result, not the first one at or after its gap's end, puts its rollout's spans in the wrong band", () => {
  const calls = Array.from({ length: 15 }, (_, i) => [
    callLine(10 + 4 * i, `c${i}`, "exec_command", { cmd: "x" }),
    outputLine(11 + 4 * i, `c${i}`, unifiedOutput(0)),
  ]).flat();
  const early = collectRollout([metaLine("m"), startLine(0, "t"), tokenLine(1, 5_000), ...calls, completeLine(100, "t")]);
  const spans = analyzeRollout({ meta: early.meta, records: early.records, fresh: false }).postTool;
  assert.equal(spans.length, 15, "every answered call gives a span");
  assert.deepEqual(new Set(spans.map((s) => s.band)), new Set(["unobserved"]), "a reading before the results bands none of them");
  const report = postToolReport(partialOfRollout({ rollout: early, fresh: false }), { root: "" });
  assert.deepEqual(
    report.by_band.map((r) => [r.key, r.n]),
    [["unobserved", 15]],
    "report rows",
  );
  const closing = collectRollout([
    startLine(0, "t"),
    tokenLine(0.5, 90_000),
    callLine(1, "a", "exec_command", { cmd: "x" }),
    outputLine(2, "a", unifiedOutput(0)),
    tokenLine(3, 0),
    tokenLine(4, 12_000),
    tokenLine(5, 60_000),
    completeLine(6, "t"),
  ]);
  const [span] = analyzeRollout({ meta: null, records: closing.records, fresh: false }).postTool;
  assert.deepEqual([span?.gapMs, span?.band], [1000, "10k_25k"], "a zero reading ends the gap, the next real reading bands it");
});

test("context bands and ordinal buckets have fixed edges", () => {
  assert.deepEqual(
    [0, 9_999, 10_000, 24_999, 25_000, 50_000, 99_999, 100_000].map(contextBand),
    ["unobserved", "lt10k", "10k_25k", "10k_25k", "25k_50k", "50k_100k", "50k_100k", "gte100k"],
    "bands",
  );
  assert.deepEqual(
    [1, 20, 21, 50, 51, 100, 101, 200, 201].map(ordinalBucket),
    ["1_20", "1_20", "21_50", "21_50", "51_100", "51_100", "101_200", "101_200", "gte201"],
    "buckets",
  );
});

// A line whose timestamp is lost, as a damaged or hand-edited rollout may hold.
function withoutTimestamp(line: string): string {
  const { timestamp: _, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify(rest);
}

// Tool time, gap and attribution of the first post-tool span of a task holding `lines`.
function firstSpan(lines: string[]): unknown[] {
  const d = collectRollout([startLine(0, "t"), ...lines, completeLine(10, "t")]);
  const [span] = analyzeRollout({ meta: null, records: d.records, fresh: false }).postTool;
  return [span?.toolMs, span?.gapMs, span?.attribution];
}

test("an untimed record neither ends a post-tool gap at zero nor gives a result a tool time measured from no time", () => {
  assert.deepEqual(
    firstSpan([
      callLine(1, "a", "exec_command", { cmd: "x" }),
      outputLine(3, "a", unifiedOutput(0)),
      withoutTimestamp(callLine(4, "b", "exec_command", { cmd: "y" })),
      tokenLine(9, 20_000),
    ]),
    [2000, 6000, "model_reasoning"],
    "the untimed call is passed over: the gap runs to the next timed model record, not to zero as tool_slow",
  );
  assert.deepEqual(
    firstSpan([
      withoutTimestamp(callLine(1, "a", "exec_command", { cmd: "x" })),
      outputLine(3, "a", unifiedOutput(0)),
      tokenLine(7, 20_000),
    ]),
    [0, 4000, "model_reasoning"],
    "a result of an untimed call has no tool time, so its gap is not outweighed by one reaching back to time zero",
  );
});
