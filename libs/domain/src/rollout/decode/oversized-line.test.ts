import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeOversizedLine } from "./decode-line.js";
import { collectRollout, RolloutCollector } from "./collect.js";
import { completeLine, metaLine, startLine } from "../testing/lines.js";

const TS = '"timestamp":"2026-03-01T12:00:05.000Z"';

test("a huge compacted line is classified from its first bytes", () => {
  const d = decodeOversizedLine(`{${TS},"type":"compacted","payload":{"message":"aaaaaaaaaaaa`);
  assert.ok(d.ok && d.record.kind === "compacted", "compacted record");
  assert.ok(d.ok && d.record.tsMs === Date.parse("2026-03-01T12:00:05.000Z"), "its timestamp kept");
});

test("a huge tool output keeps its call id and reads as an opaque result", () => {
  const d = decodeOversizedLine(
    `{${TS},"type":"response_item","payload":{"type":"function_call_output","call_id":"c7","output":"Exit code: 0\\nxxxxxxxx`,
  );
  assert.ok(d.ok && d.record.kind === "tool_output" && d.record.callId === "c7", "joined by call id");
  assert.ok(d.ok && d.record.kind === "tool_output" && d.record.envelope.kind === "opaque", "body unread");
});

test("members after nested values and escaped strings are still read from the prefix", () => {
  const d = decodeOversizedLine(
    `{${TS},"type":"event_msg","payload":{"info":{"a":["}",{"b":"]\\""}]},"type":"task_complete","turn_id":"t\\u0031","duration_ms":42,"last_agent_message":"zzzz`,
  );
  assert.ok(d.ok && d.record.kind === "task_complete", "lifecycle kind read");
  assert.ok(
    d.ok && d.record.kind === "task_complete" && d.record.turnId === "t1" && d.record.durationMs === 42,
    "scalars before the cut read",
  );
});

test("a number cut by the end of the prefix reads as absent, not as a shorter number", () => {
  const d = decodeOversizedLine(`{${TS},"type":"event_msg","payload":{"type":"task_complete","turn_id":"t","duration_ms":12`);
  assert.ok(d.ok && d.record.kind === "task_complete" && d.record.durationMs === null, "cut number absent");
});

test("a prefix that names no record is a too_long skip", () => {
  assert.deepEqual(decodeOversizedLine("xxxxxxxx"), { ok: false, skip: "too_long" }, "not an object");
  assert.deepEqual(decodeOversizedLine(`{${TS},"type":"mystery","payload":{"a":"bbb`), { ok: false, skip: "too_long" }, "unknown type");
  assert.deepEqual(decodeOversizedLine(`{"payload":{"type":"task_started"`), { ok: false, skip: "too_long" }, "type cut off");
});

test("the collector counts oversized lines and keeps what they name in file order", () => {
  const c = new RolloutCollector();
  for (const l of [metaLine("m"), startLine(1, "t")]) c.push(l);
  c.pushOversized(`{${TS},"type":"compacted","payload":{"message":"aaaa`);
  c.push(completeLine(9, "t"));
  const d = c.result();
  assert.equal(d.oversized, 1, "counted");
  assert.equal(d.lines, 4, "a line like the others");
  assert.deepEqual(
    d.records.map((r) => r.kind),
    ["task_started", "compacted", "task_complete"],
    "order kept",
  );
  assert.equal(collectRollout([metaLine("m")]).oversized, 0, "none when all lines fit");
});
