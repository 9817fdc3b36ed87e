import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeLine } from "./decode-line.js";
import { collectRollout } from "./collect.js";
import { abortLine, callLine, completeLine, eventLine, metaLine, startLine } from "../testing/lines.js";
import type { RolloutRecord } from "./record.js";
import { unknownPayloadTypes } from "../corpus/census.js";
import { foldRecords } from "../analytics/analyze.js";

function record(line: string): RolloutRecord {
  const d = decodeLine(line);
  assert.ok(d.ok, `expected a record from ${line}`);
  return d.record;
}

test("blank, non-JSON, torn and non-object lines are typed skips", () => {
  assert.deepEqual(decodeLine("   "), { ok: false, skip: "blank" }, "blank");
  assert.deepEqual(decodeLine('{"timestamp":"2026-0'), { ok: false, skip: "not_json" }, "torn");
  assert.deepEqual(decodeLine("not json"), { ok: false, skip: "not_json" }, "text");
  assert.deepEqual(decodeLine("[1,2]"), { ok: false, skip: "not_object" }, "array");
  assert.deepEqual(decodeLine('{"type":"event_msg","payload":"x"}'), { ok: false, skip: "missing_payload" }, "payload string");
  assert.deepEqual(decodeLine('{"type":"event_msg"}'), { ok: false, skip: "missing_payload" }, "wrapped type without payload");
  assert.deepEqual(decodeLine('{"type":"mystery","payload":{}}'), { ok: false, skip: "unknown_type" }, "unknown type");
  assert.deepEqual(decodeLine('{"type":"world_state","payload":{}}'), { ok: false, skip: "not_analysed" }, "known ignored type");
});

test("lifecycle events decode with trimmed ids and the raw timestamp", () => {
  const r = record(completeLine(3, "  t1 ", { duration_ms: 1200, time_to_first_token_ms: 300 }));
  assert.equal(r.kind, "task_complete", "kind");
  if (r.kind !== "task_complete") return;
  assert.equal(r.turnId, "t1", "trimmed id");
  assert.equal(r.durationMs, 1200, "duration");
  assert.equal(r.ttftMs, 300, "producer ttft");
  assert.equal(r.timestamp, "2026-03-01T12:00:03.000Z", "raw timestamp kept");
  assert.equal(r.tsMs, Date.parse("2026-03-01T12:00:03.000Z"), "parsed timestamp");
});

test("upstream aliases turn_started and turn_complete read as task kinds", () => {
  const s = record(eventLine(1, "turn_started", { turn_id: "a" }));
  const c = record(eventLine(2, "turn_complete", { turn_id: "a" }));
  assert.equal(s.kind, "task_started", "turn_started alias");
  assert.equal(c.kind, "task_complete", "turn_complete alias");
  assert.ok(s.kind === "task_started" && s.alias, "alias is remembered");
});

test("the payload census counts aliases as written, and does not call them unknown", () => {
  const d = collectRollout([
    eventLine(1, "turn_started", { turn_id: "a" }),
    eventLine(2, "turn_complete", { turn_id: "a" }),
    eventLine(3, "task_started", { turn_id: "b" }),
  ]);
  assert.deepEqual(d.payloadTypes, { turn_started: 1, turn_complete: 1, task_started: 1 }, "raw payload types");
  assert.deepEqual(unknownPayloadTypes(d), {}, "aliases are read, so not unknown");
});

test("event types named like object members are counted as plain numbers by the census", () => {
  const d = collectRollout(["constructor", "toString", "__proto__", "__proto__", "task_started"].map((t, i) => eventLine(i, t)));
  assert.deepEqual(
    Object.entries(d.payloadTypes).sort(),
    [
      ["__proto__", 2],
      ["constructor", 1],
      ["task_started", 1],
      ["toString", 1],
    ],
    "every type counted",
  );
  const unknown = JSON.parse(JSON.stringify(unknownPayloadTypes(d))) as Record<string, unknown>;
  assert.deepEqual(
    Object.entries(unknown).sort(),
    [
      ["__proto__", 2],
      ["constructor", 1],
      ["toString", 1],
    ],
    "unknown types survive JSON",
  );
});

test("a wrongly typed field reads as absent instead of dropping the line", () => {
  const r = record(eventLine(1, "task_complete", { turn_id: "t", duration_ms: 12.5, reason: { x: 1 } }));
  assert.ok(r.kind === "task_complete", "line kept");
  assert.equal(r.kind === "task_complete" ? r.durationMs : -1, 12, "fractional duration truncated");
  const a = record(eventLine(1, "turn_aborted", { turn_id: "t", duration_ms: "soon", reason: 5 }));
  assert.ok(a.kind === "turn_aborted" && a.durationMs === null && a.reason === "", "string duration and numeric reason read as absent");
  const s = record(JSON.stringify({ timestamp: 42, type: "event_msg", payload: { type: "task_started", turn_id: "x" } }));
  assert.ok(s.kind === "task_started" && s.tsMs === null && s.timestamp === "", "numeric timestamp reads as absent");
});

test("a negative or out-of-range duration reads as absent, so the task is timed by its timestamps, not flagged or reported", () => {
  const elapsed = (v: number) => {
    const r = record(completeLine(1, "t", { duration_ms: v, time_to_first_token_ms: v }));
    return r.kind === "task_complete" ? [r.durationMs, r.ttftMs] : [];
  };
  assert.deepEqual(elapsed(-5), [null, null], "negative");
  assert.deepEqual(elapsed(2 ** 53), [null, null], "past the exact integers");
  assert.deepEqual(elapsed(1e300), [null, null], "past int64");
  assert.ok(Object.is(elapsed(-0.5)[0], 0), "a fraction truncated to minus zero is zero");
  assert.deepEqual(
    elapsed(Number.MAX_SAFE_INTEGER),
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    "the largest exact integer is kept",
  );
  // The reference keeps -5: it would report it and count the abort as a short trailing one.
  const d = collectRollout([
    metaLine("m"),
    startLine(0, "a"),
    completeLine(5, "a"),
    startLine(6, "b"),
    abortLine(30, "b", "interrupted", { duration_ms: -5 }),
  ]);
  const { analytics } = foldRecords({ meta: d.meta, records: d.records, fresh: false });
  const b = analytics.lifecycle.tasks[1];
  assert.deepEqual([b?.durationMs, b?.trailingEmptyAbort], [null, false], "24 s by its timestamps: no trailing abort");
  assert.equal(analytics.tasks[1]?.recordedMs, null, "no recorded duration in the analytics");
});

test("legacy unkeyed turn_aborted decodes with an empty turn id", () => {
  const r = record(abortLine(5, undefined, "interrupted"));
  assert.ok(r.kind === "turn_aborted" && r.turnId === "" && r.reason === "interrupted", "unkeyed abort");
});

test("subagent session_meta with an object source is decoded and labelled", () => {
  const r = record(metaLine("child", { source: { subagent: { thread_spawn: { parent_thread_id: "parent", depth: 1 } } } }));
  assert.ok(r.kind === "session_meta", "meta kept");
  if (r.kind !== "session_meta") return;
  assert.equal(r.meta.rolloutId, "child", "own id");
  assert.equal(r.meta.source, "subagent:thread_spawn", "object source labelled");
  assert.equal(r.meta.parentThreadId, "parent", "parent thread named");
  const review = record(metaLine("c2", { source: { subagent: "review" } }));
  assert.ok(review.kind === "session_meta" && review.meta.source === "subagent:review", "string subagent kind");
});

test("session_id stands in for a missing id", () => {
  const r = record(JSON.stringify({ timestamp: "2026-01-01T00:00:00Z", type: "session_meta", payload: { session_id: " s-9 " } }));
  assert.ok(r.kind === "session_meta" && r.meta.rolloutId === "s-9", "session_id used, trimmed");
});

test("first session_meta wins: inherited parent metas further down do not relabel a child", () => {
  const d = collectRollout([
    metaLine("child", { source: { subagent: "review" }, model_provider: "openai" }),
    metaLine("parent", { source: "cli", model_provider: "fak" }),
    startLine(1, "t"),
  ]);
  assert.equal(d.meta?.rolloutId, "child", "first meta kept");
  assert.equal(d.meta?.provider, "openai", "first provider kept");
  assert.equal(d.records.length, 1, "metas are not records");
});

test("the pre-wrapper legacy layout decodes meta and tool calls", () => {
  const d = collectRollout([
    JSON.stringify({ id: "legacy-1", timestamp: "2025-09-10T10:00:00Z", instructions: "x", git: { branch: "main" } }),
    JSON.stringify({ record_type: "state" }),
    JSON.stringify({
      type: "function_call",
      name: "shell",
      arguments: JSON.stringify({ command: ["bash", "-lc", "ls -la"] }),
      call_id: "c1",
    }),
    JSON.stringify({
      type: "function_call_output",
      call_id: "c1",
      output: JSON.stringify({ output: "x", metadata: { exit_code: 0, duration_seconds: 0.1 } }),
    }),
    JSON.stringify({ type: "message", role: "assistant", content: [{ type: "output_text", text: "hi" }] }),
  ]);
  assert.equal(d.meta?.rolloutId, "legacy-1", "bare meta read");
  assert.deepEqual(
    d.records.map((r) => r.kind),
    ["tool_call", "tool_output", "model_output"],
    "bare items read",
  );
  const call = d.records[0];
  assert.ok(call?.kind === "tool_call" && call.head === "ls -la" && call.tsMs === null, "argv head, no timestamp");
  assert.equal(d.skipped.not_analysed, 1, "state marker skipped");
});

test("the collector flags a torn final line and counts skips", () => {
  const d = collectRollout([metaLine("m"), startLine(1, "t"), "", '{"timestamp":"x","type":"event_']);
  assert.equal(d.tornTail, true, "torn tail");
  assert.equal(d.skipped.not_json, 1, "one torn line");
  assert.equal(d.skipped.blank, 1, "one blank line");
  assert.equal(d.lines, 3, "non-blank lines");
  const ok = collectRollout(['{"broken', metaLine("m"), startLine(1, "t")]);
  assert.equal(ok.tornTail, false, "a bad line before the end is not a torn tail");
});

test("a final line that is whole JSON but no record is not a torn tail: only a line cut off is", () => {
  for (const last of [
    "[1,2]",
    "42",
    "null",
    '{"type":"event_msg","payload":"x"}',
    '{"type":"event_msg","payload":{"type":"task_complete","duration_ms":12.5}}',
  ]) {
    const d = collectRollout([metaLine("m"), startLine(1, "t"), last]);
    assert.equal(d.tornTail, false, last);
  }
});

test("tool calls, outputs and messages drop their bodies", () => {
  const r = record(callLine(1, "c1", "shell_command", { command: "cat secret.txt", workdir: "/w" }));
  assert.ok(r.kind === "tool_call", "call");
  assert.ok(!JSON.stringify(r).includes("workdir"), "arguments object not retained");
  const m = record(eventLine(2, "agent_message", { message: "a private message", phase: "final_answer" }));
  assert.ok(m.kind === "agent_message" && m.category === "talk_only", "message reduced to a category");
  assert.ok(!JSON.stringify(m).includes("private"), "message text dropped");
});

test("goal continuations are recognised from the user message marker", () => {
  const line = JSON.stringify({
    timestamp: "2026-03-01T00:00:00Z",
    type: "response_item",
    payload: { type: "message", role: "user", content: [{ type: "input_text", text: 'x <codex_internal_context source="goal"> y' }] },
  });
  assert.equal(record(line).kind, "goal_continuation", "goal marker");
});

test("token_count reads last_token_usage.input_tokens, null info reads as zero", () => {
  const r = record(eventLine(1, "token_count", { info: { last_token_usage: { input_tokens: 5000 } } }));
  assert.ok(r.kind === "token_count" && r.inputTokens === 5000, "reading");
  const n = record(eventLine(1, "token_count", { info: null, rate_limits: {} }));
  assert.ok(n.kind === "token_count" && n.inputTokens === 0, "null info");
});

test("array outputs decode the envelope carried by their text items", () => {
  const line = JSON.stringify({
    timestamp: "2026-03-01T00:00:00Z",
    type: "response_item",
    payload: {
      type: "function_call_output",
      call_id: "c",
      output: [
        { type: "input_text", text: "Exit code: 3\nWall time: 1 seconds\nOutput:\nx" },
        { type: "input_image", image_url: "data:" },
      ],
    },
  });
  const r = record(line);
  assert.ok(r.kind === "tool_output" && r.envelope.kind === "text" && r.envelope.exitCode === 3, "text item decoded");
  const images = record(
    JSON.stringify({
      timestamp: "",
      type: "response_item",
      payload: { type: "custom_tool_call_output", call_id: "c", output: [{ type: "input_image" }] },
    }),
  );
  assert.ok(images.kind === "tool_output" && images.envelope.kind === "opaque", "items without text stay opaque");
});

test("user messages keep only that the user spoke; injected context items are not user messages", () => {
  const e = record(eventLine(1, "user_message", { message: "my private prompt", images: [] }));
  assert.ok(e.kind === "user_message" && e.source === "event", "event-sourced");
  assert.ok(!JSON.stringify(e).includes("private"), "text dropped");
  const item = (text: string) =>
    JSON.stringify({
      timestamp: "2026-03-01T00:00:00Z",
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
    });
  const i = record(item("my private prompt"));
  assert.ok(i.kind === "user_message" && i.source === "item" && !JSON.stringify(i).includes("private"), "item-sourced, text dropped");
  assert.deepEqual(decodeLine(item("<environment_context>\n<cwd>/w</cwd>")), { ok: false, skip: "not_analysed" }, "environment context");
  assert.deepEqual(decodeLine(item("# AGENTS.md instructions for /w")), { ok: false, skip: "not_analysed" }, "instructions");
});
