import { test } from "node:test";
import assert from "node:assert/strict";
import { collectRollout } from "../decode/collect.js";
import { unreadablePartial } from "../corpus/empty.js";
import { mergeAll } from "../corpus/merge.js";
import { partialOfRollout } from "../corpus/partial.js";
import { callLine, compactedLine, completeLine, metaLine, outputLine, startLine, tokenLine, unifiedOutput } from "../testing/lines.js";
import { postToolReport } from "./post-tool-report.js";

const ROLLOUT = [
  metaLine("m"),
  startLine(0, "t"),
  callLine(1, "a", "exec_command", { cmd: "a" }),
  outputLine(2, "a", unifiedOutput(0)),
  callLine(4, "b", "exec_command", { cmd: "b" }),
  outputLine(5, "b", unifiedOutput(0)),
  tokenLine(40, 5_000),
  callLine(41, "c", "exec_command", { cmd: "c" }),
  outputLine(42, "c", unifiedOutput(0)),
  tokenLine(43, 150_000),
  callLine(44, "d", "exec_command", { cmd: "d" }),
  outputLine(45, "d", unifiedOutput(0)),
  compactedLine(46),
  completeLine(400, "t"),
  startLine(500, "u"),
  callLine(501, "e", "exec_command", { cmd: "e" }),
  outputLine(502, "e", unifiedOutput(0)),
];

test("a post-tool report that renames the reference's fields or reports milliseconds breaks its consumers", () => {
  const d = collectRollout(ROLLOUT);
  const r = postToolReport(mergeAll([partialOfRollout({ rollout: d, fresh: false }), unreadablePartial()]), { root: "/r" });
  assert.deepEqual(
    Object.keys(r),
    [
      "schema",
      "root",
      "sessions",
      "unreadable",
      "spans",
      "tail_skipped",
      "gap",
      "tool_ms",
      "over30s_share",
      "stall_spans",
      "compaction_in_gap",
      "by_band",
      "by_ordinal",
      "attribution",
    ],
    "the reference's fields in its order; attribution is ours, after them",
  );
  assert.deepEqual(
    [r.schema, r.root, r.sessions, r.unreadable, r.spans, r.tail_skipped],
    ["fak-codex-posttool/1", "/r", 1, 1, 4, 1],
    "counts",
  );
  assert.deepEqual(r.gap, { n: 4, p50: 2, p90: 355, p95: 355, p99: 355, max: 355 }, "gap percentiles in seconds");
  assert.deepEqual(r.tool_ms, { n: 4, p50: 1, p90: 1, p95: 1, p99: 1, max: 1 }, "tool percentiles in seconds despite the name");
  assert.deepEqual([r.over30s_share, r.stall_spans, r.compaction_in_gap], [0.5, 1, 1], "over 30 s share, stalls, compactions");
  assert.deepEqual(
    r.by_band,
    [
      { key: "unobserved", n: 1, p50: 355, p90: 355, p95: 355, over30s: 1, tool_p50: 1 },
      { key: "lt10k", n: 2, p50: 2, p90: 35, p95: 35, over30s: 1, tool_p50: 1 },
      { key: "gte100k", n: 1, p50: 1, p90: 1, p95: 1, over30s: 0, tool_p50: 1 },
    ],
    "band rows in band order (not by name), empty bands left out",
  );
  assert.deepEqual(r.by_ordinal, [{ key: "1_20", n: 4, p50: 2, p90: 355, p95: 355, over30s: 2, tool_p50: 1 }], "ordinal rows");
  assert.deepEqual(r.attribution, { model_reasoning: 2, stall_capped: 1, tool_slow: 1 }, "attribution kept");
});

test("a post-tool report of no rollouts omits unreadable and lists no rows", () => {
  const r = postToolReport(mergeAll([]), { root: "" });
  assert.equal("unreadable" in r, false, "no unreadable field at zero");
  assert.deepEqual([r.sessions, r.spans, r.over30s_share, r.by_band, r.by_ordinal], [0, 0, 0, [], []], "empty");
  assert.deepEqual(r.gap, { n: 0, p50: 0, p90: 0, p95: 0, p99: 0, max: 0 }, "zero percentiles");
});
