import { test } from "node:test";
import assert from "node:assert/strict";
import { collectRollout } from "../decode/collect.js";
import { mergeAll } from "../corpus/merge.js";
import { partialOfRollout } from "../corpus/partial.js";
import { percentiles } from "../corpus/percentiles.js";
import { abortLine, callLine, completeLine, metaLine, outputLine, startLine, unifiedOutput } from "../testing/lines.js";
import { analyticsReport, findings, hardFailureCount, rankReasons } from "./analytics-report.js";

const GOAL = JSON.stringify({
  timestamp: "2026-03-01T12:00:00Z",
  type: "response_item",
  payload: { type: "message", role: "user", content: [{ type: "input_text", text: '<codex_internal_context source="goal">' }] },
});

test("nearest-rank percentiles use index floor(q*n+0.5)-1", () => {
  assert.deepEqual(percentiles([]), { n: 0, p50: 0, p90: 0, p95: 0, p99: 0, max: 0 }, "empty");
  const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  assert.deepEqual(percentiles(ten), { n: 10, p50: 5, p90: 9, p95: 10, p99: 10, max: 10 }, "ten");
  assert.deepEqual(percentiles([7]), { n: 1, p50: 7, p90: 7, p95: 7, p99: 7, max: 7 }, "one");
});

test("reasons rank by count, then reason, then class", () => {
  const rows = rankReasons({ "ok:exit_0": 2, "failure:exit_1": 2, "ok:no_envelope": 5, "interrupted:a": 1, "failure:a": 1 });
  assert.deepEqual(
    rows.map((r) => `${r.class}:${r.reason}`),
    ["ok:no_envelope", "ok:exit_0", "failure:exit_1", "failure:a", "interrupted:a"],
    "ranked",
  );
});

test("findings fire at the floor of 25 with the reference's tokens", () => {
  const f = findings(rankReasons({ "failure:exit_1": 25, "timeout:timeout": 24, "ok:exit_0": 99 }), 25, 26);
  assert.deepEqual(
    f.map((x) => [x.reason, x.count]),
    [
      ["repeated_failure:exit_1", 25],
      ["repeated_idle_gap", 25],
      ["foreground_polling", 26],
    ],
    "findings",
  );
  assert.equal(f[0]?.action, "recurring exit_1 tool outcome (25 calls) \u2014 dos unstick / issue candidate", "action text");
});

test("analytics report aggregates tasks, calls, tools, outliers and the resume cohort", () => {
  const exec = { originator: "codex_exec", source: "exec" };
  const a = partialOfRollout({
    rollout: collectRollout([
      metaLine("s1", exec),
      GOAL,
      startLine(0, "t1"),
      callLine(1, "c1", "exec_command", { cmd: "make" }),
      outputLine(4, "c1", unifiedOutput(2)),
      callLine(5, "c2", "exec_command", { cmd: "ls" }),
      outputLine(6, "c2", unifiedOutput(0)),
      completeLine(10, "t1", { duration_ms: 10000 }),
      startLine(11, "t2"),
      callLine(12, "c3", "exec_command", { cmd: "make" }),
      outputLine(13, "c3", unifiedOutput(124)),
      abortLine(20, "t2", "interrupted"),
      startLine(21, "t3"),
    ]),
    fresh: false,
    outlierKeep: 5,
  });
  const b = partialOfRollout({ rollout: collectRollout([metaLine("s2"), startLine(0, "u1"), completeLine(4, "u1")]), fresh: false });
  const r = analyticsReport(mergeAll([a, b]), { root: "/x", topN: 2 });
  assert.deepEqual([r.sessions, r.tasks, r.completed, r.tool_calls], [2, 4, 2, 3], "counts");
  assert.deepEqual(r.duration, { n: 2, p50: 4, p90: 10, p95: 10, p99: 10, max: 10 }, "durations of completed tasks, recorded first");
  assert.deepEqual(r.classes, { failure: 1, ok: 1, timeout: 1 }, "classes");
  assert.equal(hardFailureCount(r), 2, "hard failures");
  assert.deepEqual(r.by_tool, { exec_command: { calls: 3, failures: 1, timeouts: 1, ms: 5000 } }, "per tool");
  assert.equal(r.timeout_kills, 1, "timeout kills");
  assert.deepEqual(
    r.top_tasks?.map((t) => [t.session, t.turn_id, t.duration_s]),
    [
      ["s1", "t2", 9],
      ["s1", "t1", 10],
    ].sort((x, y) => Number(y[2]) - Number(x[2])),
    "outliers by duration, cut to topN",
  );
  assert.deepEqual(
    r.fresh_headless_resume,
    {
      started: 3,
      useful_work_reached: 1,
      completed: 1,
      crashed: 2,
      superseded: 0,
      failure_reasons: { "before_useful_work:aborted": 1, "before_useful_work:process_death": 1 },
    },
    "resume cohort",
  );
  assert.equal(r.top_tasks?.[0]?.ttft_s, 1, "ttft from the first model record");
});

test("an outlier of a rollout without session_meta is named by its file instead of left blank", () => {
  const task = [startLine(0, "t"), completeLine(3, "t")];
  const named = partialOfRollout({ rollout: collectRollout([metaLine("id-1"), ...task]), fresh: false, session: "rollout-a" });
  const bare = partialOfRollout({ rollout: collectRollout(task), fresh: false, session: "rollout-b" });
  const r = analyticsReport(mergeAll([named, bare]), { root: "" });
  assert.deepEqual(r.top_tasks?.map((t) => t.session).sort(), ["id-1", "rollout-b"], "the rollout id first, else the file");
});

test("an unobserved TTFT is null on outliers, not a negative number", () => {
  const p = partialOfRollout({ rollout: collectRollout([metaLine("s"), startLine(0, "t"), completeLine(3, "t")]), fresh: false });
  const r = analyticsReport(p, { root: "" });
  assert.equal(r.top_tasks?.[0]?.ttft_s, null, "null ttft");
  assert.equal(r.ttft.n, 0, "not in the TTFT sample");
});

test("topN defaults to 10 and outliers keep at most 3 critical rows", () => {
  const lines = [metaLine("s")];
  for (let i = 0; i < 12; i += 1) {
    const t0 = i * 100;
    lines.push(
      startLine(t0, `t${i}`),
      callLine(t0 + 1, `a${i}`, "exec_command", { cmd: "x" }),
      outputLine(t0 + 2, `a${i}`, unifiedOutput(0)),
    );
    lines.push(callLine(t0 + 3, `b${i}`, "write_stdin", { session_id: 1, chars: "" }), outputLine(t0 + 5, `b${i}`, unifiedOutput(0)));
    lines.push(
      callLine(t0 + 6, `c${i}`, "apply", { command: "y" }),
      outputLine(t0 + 9, `c${i}`, unifiedOutput(0)),
      completeLine(t0 + 10 + i, `t${i}`),
    );
  }
  const p = partialOfRollout({ rollout: collectRollout(lines), fresh: false, outlierKeep: 20 });
  const r = analyticsReport(p, { root: "", topN: 0 });
  assert.equal(r.top_tasks?.length, 10, "default top 10");
  assert.equal(r.top_tasks?.[0]?.turn_id, "t11", "longest first");
  assert.equal(r.top_tasks?.[0]?.top?.length, 3, "three contributors kept");
});
