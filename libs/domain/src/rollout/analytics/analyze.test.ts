import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeRollout } from "./analyze.js";
import { collectRollout } from "../decode/collect.js";
import type { RolloutAnalytics } from "./types.js";
import { rolloutAnalyticsJson } from "../report/rollout-report.js";
import { signatureOf } from "../signature.js";
import {
  abortLine,
  callLine,
  completeLine,
  customCallLine,
  messageLine,
  metaLine,
  outputLine,
  startLine,
  tokenLine,
  unifiedOutput,
} from "../testing/lines.js";

function analyze(lines: string[], fresh = false): RolloutAnalytics {
  const d = collectRollout([metaLine("r1"), ...lines]);
  return analyzeRollout({ meta: d.meta, records: d.records, fresh });
}

function reasons(a: RolloutAnalytics): string[] {
  return a.outcomes.map((o) => `${o.cls}/${o.reason}/${o.confidence}`);
}

test("calls join to outputs and are classified from decoded envelopes", () => {
  const a = analyze([
    startLine(0, "t"),
    callLine(1, "c1", "exec_command", { cmd: "make" }),
    outputLine(3, "c1", unifiedOutput(2)),
    callLine(4, "c2", "shell", { command: ["bash", "-lc", "rg needle"] }),
    outputLine(4.5, "c2", "Exit code: 1\nWall time: 0.1 seconds\nOutput:\n"),
    completeLine(5, "t"),
  ]);
  assert.deepEqual(reasons(a), ["failure/exit_2/observed", "expected_negative/grep_no_match/observed"], "classes");
  assert.deepEqual(
    a.outcomes.map((o) => o.spanMs),
    [2000, 500],
    "spans from call to output",
  );
  assert.equal(a.outcomes[0]?.turnId, "t", "owning task");
  assert.deepEqual(a.tasks[0]?.classes, { expected_negative: 1, failure: 1 }, "per-task classes");
});

test("missing results are typed from the reconciled task boundary", () => {
  const a = analyze([
    callLine(0, "c0", "exec_command", { cmd: "ls" }),
    startLine(1, "done"),
    callLine(2, "c1", "exec_command", { cmd: "ls" }),
    completeLine(3, "done"),
    startLine(4, "cut"),
    callLine(5, "c2", "exec_command", { cmd: "a" }),
    callLine(6, "c3", "exec_command", { cmd: "b" }),
    outputLine(7, "c3", unifiedOutput(0)),
    callLine(8, "c4", "exec_command", { cmd: "c" }),
    abortLine(9, "cut", "interrupted"),
    startLine(10, "gone"),
    callLine(11, "c5", "exec_command", { cmd: "d" }),
    startLine(12, "next"),
    callLine(13, "c6", "exec_command", { cmd: "e" }),
  ]);
  assert.deepEqual(
    reasons(a),
    [
      "missing_result/no_owning_task/inferred",
      "missing_result/task_completed_without_result/observed",
      "missing_result/later_output_in_task/observed",
      "ok/exit_0/observed",
      "interrupted/task_boundary_aborted/inferred",
      "interrupted/task_boundary_superseded/inferred",
      "interrupted/task_boundary_process_death/inferred",
    ],
    "missing-result typing",
  );
  const live = analyze([startLine(0, "t"), callLine(1, "c", "exec_command", { cmd: "x" })], true);
  assert.deepEqual(reasons(live), ["live_tail/rollout_fresh_call_may_still_run/inferred"], "fresh tail");
});

test("a dropped call the model moved past in a completed task is typed by the later evidence, checked before the completion", () => {
  const a = analyze([
    startLine(0, "t"),
    callLine(1, "dropped", "exec_command", { cmd: "a" }),
    callLine(2, "answered", "exec_command", { cmd: "b" }),
    outputLine(3, "answered", unifiedOutput(0)),
    callLine(4, "last", "exec_command", { cmd: "c" }),
    completeLine(5, "t"),
  ]);
  assert.deepEqual(
    reasons(a),
    ["missing_result/later_output_in_task/observed", "ok/exit_0/observed", "missing_result/task_completed_without_result/observed"],
    "later evidence first, then the completed boundary",
  );
});

test("a call id reused in another task joins the output of its own task", () => {
  const a = analyze([
    startLine(0, "a"),
    callLine(1, "dup", "exec_command", { cmd: "x" }),
    completeLine(2, "a"),
    startLine(3, "b"),
    callLine(4, "dup", "exec_command", { cmd: "y" }),
    outputLine(5, "dup", unifiedOutput(1)),
    completeLine(6, "b"),
  ]);
  assert.deepEqual(reasons(a), ["missing_result/task_completed_without_result/observed", "failure/exit_1/observed"], "per-task join");
  assert.equal(a.unmatchedOutputs, 0, "output consumed once");
});

test("sequential calls split the wall into tool and model time exactly", () => {
  const a = analyze([
    startLine(0, "t"),
    callLine(2, "c", "exec_command", { cmd: "make" }),
    outputLine(5, "c", unifiedOutput(0)),
    completeLine(6, "t"),
  ]);
  const t = a.tasks[0];
  assert.deepEqual([t?.wallMs, t?.toolMs, t?.modelMs, t?.waitMs, t?.idleMs], [6000, 3000, 3000, 0, 0], "split");
  assert.deepEqual(
    t?.critical,
    [
      { category: "model", ms: 3000 },
      { category: "tool:exec_command", ms: 3000 },
    ],
    "ties ranked by category",
  );
});

test("parallel calls share their overlap instead of double-booking it", () => {
  const a = analyze([
    startLine(0, "t"),
    callLine(1, "a", "exec_command", { cmd: "x" }),
    callLine(1, "b", "exec_command", { cmd: "y" }),
    outputLine(3, "a", unifiedOutput(0)),
    outputLine(3, "b", unifiedOutput(0)),
    completeLine(4, "t"),
  ]);
  const t = a.tasks[0];
  assert.equal(t?.toolMs, 2000, "overlap booked once");
  assert.equal((t?.toolMs ?? 0) + (t?.modelMs ?? 0), t?.wallMs, "buckets sum to the wall");
});

test("gaps beyond the stall threshold are idle, and waits are their own bucket", () => {
  const a = analyze([
    startLine(0, "t"),
    callLine(1, "s", "exec_command", { cmd: "sleep 10" }),
    outputLine(11, "s", unifiedOutput(0)),
    completeLine(411, "t"),
  ]);
  const t = a.tasks[0];
  assert.deepEqual([t?.waitMs, t?.modelMs, t?.idleMs, t?.idleGaps], [10000, 301000, 100000, 1], "wait, model capped at 300 s, idle");
  assert.equal(a.behavior.stallGaps, 1, "stall gap");
  assert.equal(a.behavior.maxGapS, 400, "max gap seconds");
  assert.equal(a.behavior.sleepPolls, 1, "sleep poll");
  const notSleep = analyze([
    startLine(0, "t"),
    callLine(1, "s", "exec_command", { cmd: "sleep-foo 10" }),
    outputLine(3, "s", unifiedOutput(0)),
    completeLine(4, "t"),
  ]);
  assert.equal(notSleep.tasks[0]?.waitMs, 0, "sleep-foo is not a wait");
  assert.equal(notSleep.behavior.sleepPolls, 0, "nor a sleep poll");
});

test("TTFT prefers the producer's figure, else the first model record", () => {
  const produced = analyze([startLine(0, "t"), tokenLine(2, 500), completeLine(3, "t", { time_to_first_token_ms: 1234 })]);
  assert.deepEqual([produced.tasks[0]?.ttftMs, produced.tasks[0]?.ttftSource], [1234, "producer"], "producer");
  const observed = analyze([startLine(0, "t"), tokenLine(1, 0), messageLine(2.5, "hello"), completeLine(3, "t")]);
  assert.deepEqual([observed.tasks[0]?.ttftMs, observed.tasks[0]?.ttftSource], [2500, "first_model_record"], "empty token reading skipped");
  const none = analyze([startLine(0, "t"), completeLine(3, "t")]);
  assert.deepEqual([none.tasks[0]?.ttftMs, none.tasks[0]?.ttftSource], [-1, null], "unobserved");
});

test("a late completion of a superseded turn gives its first-token figure to that turn, not to the turn it sits in", () => {
  const a = analyze([
    startLine(0, "old"),
    startLine(10, "new"),
    completeLine(11, "old", { time_to_first_token_ms: 900 }),
    tokenLine(13, 500),
    completeLine(20, "new", { time_to_first_token_ms: 2500 }),
  ]);
  assert.deepEqual(
    a.tasks.map((t) => [t.turnId, t.outcome, t.ttftMs, t.ttftSource]),
    [
      ["old", "complete", 900, "producer"],
      ["new", "complete", 2500, "producer"],
    ],
    "each completion's figure goes to the turn it names",
  );
});

test("detectors find repeat failures, success loops, timeouts and edit churn", () => {
  const lines = [startLine(0, "t")];
  let n = 0;
  const call = (cmd: string, out: string): void => {
    n += 1;
    lines.push(callLine(n, `c${n}`, "exec_command", { cmd }), outputLine(n + 0.5, `c${n}`, out));
  };
  for (let i = 0; i < 3; i += 1) call("npm test", unifiedOutput(1));
  for (let i = 0; i < 8; i += 1) call("git status", unifiedOutput(0));
  call("slow", unifiedOutput(124));
  const patch = "*** Begin Patch\n*** Update File: src/x.ts\n*** End Patch";
  for (let i = 0; i < 5; i += 1) {
    n += 1;
    lines.push(customCallLine(n, `p${n}`, "apply_patch", patch));
  }
  lines.push(completeLine(100, "t"));
  const b = analyze(lines).behavior;
  assert.deepEqual(
    b.repeatFailures.map((r) => r.count),
    [3],
    "repeat failure at 3",
  );
  assert.equal(b.maxRepeatFailure, 3, "max repeat failure");
  assert.deepEqual(
    b.successLoops.map((r) => [r.tool, r.count]),
    [["exec_command", 8]],
    "success loop at 8",
  );
  assert.equal(b.timeoutKills, 1, "timeout kill");
  assert.deepEqual(b.editChurn, [{ file: "src/x.ts", count: 5 }], "freeform patch churn");
});

test("calls with unknown heads never form signature loops", () => {
  const lines = [startLine(0, "t")];
  for (let i = 0; i < 10; i += 1)
    lines.push(callLine(i + 1, `c${i}`, "exec_command", "[REDACTED]"), outputLine(i + 1.5, `c${i}`, "[REDACTED]"));
  lines.push(completeLine(20, "t"));
  const b = analyze(lines).behavior;
  assert.deepEqual([b.successLoops.length, b.maxSuccessLoop], [0, 0], "no loop from empty heads");
});

test("analytics trailing abort uses the shared rule", () => {
  const a = analyze([startLine(0, "a"), completeLine(5, "a"), startLine(6, "b"), abortLine(6.5, "b", "interrupted")]);
  assert.equal(a.tasks[1]?.trailingEmptyAbort, true, "short empty abort after a completion");
  assert.equal(a.completedWithTrailingAbort, true, "rollout flag");
});

test("rollout analytics JSON keeps the reference's field names and drops bodies", () => {
  const a = analyze([
    startLine(0, "t"),
    callLine(1, "c", "exec_command", { cmd: "make SECRET=1" }),
    outputLine(2, "c", unifiedOutput(2, "private output")),
    completeLine(3, "t", { duration_ms: 3000 }),
  ]);
  const json = rolloutAnalyticsJson(a);
  assert.deepEqual(Object.keys(json), ["meta", "tasks", "calls", "outcomes", "behavior", "substantive_completed"], "top-level fields");
  assert.deepEqual(
    json["meta"],
    { rollout_id: "r1", provider: "openai", cli_version: "0.130.0", cwd: "/w", originator: "codex_cli_rs", source: "cli" },
    "meta",
  );
  const task = (json["tasks"] as Record<string, unknown>[])[0];
  assert.deepEqual(
    Object.keys(task ?? {}),
    [
      "turn_id",
      "outcome",
      "provenance",
      "wall_ms",
      "recorded_ms",
      "ttft_ms",
      "ttft_source",
      "tool_ms",
      "wait_ms",
      "model_ms",
      "idle_ms",
      "tool_calls",
      "classes",
      "critical",
    ],
    "task fields",
  );
  assert.deepEqual(
    (json["outcomes"] as unknown[])[0],
    {
      turn_id: "t",
      tool: "exec_command",
      class: "failure",
      reason: "exit_2",
      confidence: "observed",
      span_ms: 1000,
      sig: signatureOf("exec_command", "make SECRET=1"),
    },
    "outcome row",
  );
  assert.deepEqual(
    Object.keys(json["behavior"] as object),
    ["timeout_kills", "sleep_polls", "stall_gaps", "max_gap_s", "max_repeat_failure", "max_success_loop", "max_edit_churn"],
    "behavior fields",
  );
  assert.ok(
    !JSON.stringify(json).includes("private output") && !JSON.stringify(json).includes("SECRET"),
    "no bodies or heads in the report",
  );
});
