// Folds the real Codex rollouts kept beside the project; the domain stays pure, so this
// test does the reading and feeds lines to the decoder.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROLLOUTS_DIR as DIR, SKIP_REAL as SKIP } from "@crs/runtime/testing";
import {
  analyticsReport,
  analyzeRollout,
  collectRollout,
  healthReport,
  lifecycleReport,
  mergeAll,
  partialOfRollout,
  type DecodedRollout,
  type RolloutAnalytics,
} from "./index.js";

const FILES = {
  exec: "agent-history-codex-session-01.jsonl",
  unified: "localpush-rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl",
  openTail: "localpush-rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl",
  mcp: "localpush-rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl",
};

function decode(name: string): DecodedRollout {
  return collectRollout(readFileSync(join(DIR, name), "utf8").split("\n"));
}

function analyze(name: string, fresh = false): RolloutAnalytics {
  const d = decode(name);
  return analyzeRollout({ meta: d.meta, records: d.records, fresh });
}

function classes(a: RolloutAnalytics): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of a.outcomes) out[`${o.tool}/${o.cls}/${o.reason}`] = (out[`${o.tool}/${o.cls}/${o.reason}`] ?? 0) + 1;
  return out;
}

test("real codex_exec 0.135.0 rollout: one complete zero-tool turn with producer figures", { skip: SKIP }, () => {
  const d = decode(FILES.exec);
  assert.equal(d.lines, 11, "lines");
  assert.equal(d.tornTail, false, "no torn tail");
  assert.deepEqual(
    [d.meta?.rolloutId, d.meta?.provider, d.meta?.cliVersion, d.meta?.originator, d.meta?.source, d.meta?.threadSource],
    ["019e9625-802f-7e91-840a-cfe88d14117a", "openai", "0.135.0", "codex_exec", "exec", "user"],
    "meta",
  );
  const a = analyze(FILES.exec);
  const t = a.tasks[0];
  assert.equal(a.tasks.length, 1, "one task");
  assert.deepEqual(
    [t?.outcome, t?.provenance, t?.recordedMs, t?.ttftMs, t?.ttftSource, t?.wallMs],
    ["complete", "observed", 6074, 5828, "producer", 6056],
    "task",
  );
  assert.equal(a.calls, 0, "no tool calls");
});

test("real unified-exec rollout: 118 calls in one 311 s turn, no false success loop", { skip: SKIP }, () => {
  const d = decode(FILES.unified);
  assert.equal(d.lines, 417, "lines");
  assert.equal(d.payloadTypes["token_count"], 56, "token counts");
  const a = analyze(FILES.unified);
  const t = a.tasks[0];
  assert.deepEqual([a.tasks.length, t?.outcome, t?.wallMs, t?.recordedMs], [1, "complete", 311377, null], "task without duration_ms");
  assert.deepEqual(classes(a), { "exec_command/ok/no_envelope": 116, "write_stdin/ok/no_envelope": 2 }, "redacted outputs are opaque");
  assert.deepEqual([t?.toolMs, t?.modelMs, t?.waitMs, t?.idleMs], [7485, 303892, 0, 0], "parallel batches booked once");
  assert.ok((t?.toolMs ?? 0) + (t?.modelMs ?? 0) <= (t?.wallMs ?? 0), "split within the wall");
  assert.deepEqual([a.behavior.successLoops.length, a.behavior.maxSuccessLoop], [0, 0], "redacted heads form no loop");
});

test("real open-tail rollout: process_death when stale, live when fresh", { skip: SKIP }, () => {
  const stale = analyze(FILES.openTail, false);
  assert.deepEqual(
    [stale.tasks[0]?.outcome, stale.tasks[0]?.provenance, stale.tasks[0]?.wallMs],
    ["process_death", "synthesized", 10127],
    "stale",
  );
  assert.deepEqual(classes(stale), { "exec_command/interrupted/task_boundary_process_death": 1 }, "call cut by the boundary");
  const fresh = analyze(FILES.openTail, true);
  assert.equal(fresh.tasks[0]?.outcome, "live", "fresh");
  assert.deepEqual(classes(fresh), { "exec_command/live_tail/rollout_fresh_call_may_still_run": 1 }, "call may still run");
});

test("real MCP rollout: five calls, one 54.3 s call dominating the critical path", { skip: SKIP }, () => {
  const a = analyze(FILES.mcp);
  const t = a.tasks[0];
  assert.deepEqual([t?.outcome, t?.wallMs, t?.toolCalls, t?.toolMs, t?.modelMs], ["complete", 96536, 5, 54838, 41698], "task");
  assert.deepEqual(t?.critical[0], { category: "tool:mcp__cloud-associates__execute_workflow", ms: 54500 }, "top contributor");
  assert.equal(Math.max(...a.outcomes.map((o) => o.spanMs)), 54321, "longest single call span");
});

test("real rollouts with written starts open no implicit turn, though user items precede their starts", { skip: SKIP }, () => {
  const names = readdirSync(DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  for (const n of names) {
    const d = decode(n);
    const a = analyzeRollout({ meta: d.meta, records: d.records, fresh: false });
    assert.ok(
      d.records.some((r) => r.kind === "user_message" && r.source === "event"),
      `${n}: user_message events are read`,
    );
    assert.deepEqual(
      a.lifecycle.tasks.filter((t) => t.implicit || t.errorClass !== null),
      [],
      `${n}: no implicit or errored task`,
    );
  }
  const first = decode(FILES.mcp).records.findIndex((r) => r.kind === "user_message");
  const start = decode(FILES.mcp).records.findIndex((r) => r.kind === "task_started");
  assert.ok(first >= 0 && first < start, "a redacted user item sits before the start and must not open a turn");
});

test("real corpus reports: lifecycle, analytics and health figures", { skip: SKIP }, () => {
  const names = readdirSync(DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  assert.equal(names.length, 4, "four rollouts");
  const partials = names.map((n) => partialOfRollout({ rollout: decode(n), fresh: false, session: n.replace(/\.jsonl$/, "") }));
  const merged = mergeAll(partials);
  const reversed = mergeAll([...partials].reverse());
  assert.equal(JSON.stringify(reversed), JSON.stringify(merged), "order does not matter");
  const life = lifecycleReport(merged, { root: "real" });
  assert.deepEqual(
    [
      life.scanned,
      life.totals.starts,
      life.totals.complete,
      life.totals.process_death,
      life.totals.unmatched_before,
      life.all_starts_typed,
    ],
    [4, 4, 3, 1, 1, true],
    "lifecycle",
  );
  assert.deepEqual(
    [life.totals.implicit, life.totals.implicit_unterminated, life.totals.errored],
    [undefined, undefined, undefined],
    "no implicit or errored counts",
  );
  assert.deepEqual(
    Object.entries(life.by_provider_version).map(([k, c]) => [k, c.rollouts]),
    [
      ["openai 0.104.0-alpha.1", 3],
      ["openai 0.135.0", 1],
    ],
    "rows",
  );
  const an = analyticsReport(merged, { root: "real" });
  assert.deepEqual([an.sessions, an.tasks, an.completed, an.tool_calls], [4, 4, 3, 124], "analytics counts");
  assert.deepEqual(an.classes, { interrupted: 1, ok: 123 }, "classes");
  assert.deepEqual(an.duration, { n: 3, p50: 96.536, p90: 311.377, p95: 311.377, p99: 311.377, max: 311.377 }, "durations");
  assert.deepEqual(an.ttft, { n: 4, p50: 5.828, p90: 12.45, p95: 12.45, p99: 12.45, max: 12.45 }, "ttft");
  assert.deepEqual(
    an.by_tool?.["exec_command"],
    { calls: 117, failures: 0, timeouts: 0, ms: 23697 },
    "exec_command rollup (summed call spans)",
  );
  assert.equal(an.top_tasks?.[0]?.duration_s, 311.377, "longest task first");
  const h = healthReport(merged, { top: 10 });
  assert.deepEqual(
    h.totals,
    { turns: 4, tool_calls: 124, tool_calls_per_turn: 31, zero_tool_turns: 1, zero_tool_rate: 0.25, unterminated: 1 },
    "health totals",
  );
  assert.deepEqual(h.zero_tool_breakdown, { guard_refused: 0, preamble_noop: 0, talk_only: 1, silent: 0 }, "zero-tool");
  assert.deepEqual(h.flags, ["HIGH_ZERO_TOOL_RATE: 1/4 turns (25%) call no tool"], "flags");
});
