import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeLine } from "./decode-line.js";
import { collectRollout } from "./collect.js";
import { callLine, completeLine, metaLine, outputLine, startLine } from "../testing/lines.js";

// Nested arrays and objects `depth` levels deep, as text, around a leaf.
function nested(depth: number, leaf: string, objects: boolean): string {
  return objects ? `${'{"a":'.repeat(depth)}${leaf}${"}".repeat(depth)}` : `${"[".repeat(depth)}${leaf}${"]".repeat(depth)}`;
}

// Places a deep value in one of the fields the decoder reads.
function deepLine(depth: number, objects: boolean, where: number): string {
  const deep = nested(depth, "1", objects);
  const ts = '"timestamp":"2026-03-01T12:00:05.000Z"';
  switch (where) {
    case 0:
      return `{${ts},"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":${deep}}}`;
    case 1:
      return `{${ts},"type":"response_item","payload":{"type":"function_call","name":"shell","call_id":"c1","arguments":{"command":${deep}}}}`;
    case 2:
      return `{${ts},"type":"event_msg","payload":{"type":"error","codex_error_info":${deep}}}`;
    case 3:
      return `{${ts},"type":"session_meta","payload":{"id":"s","source":${deep}}}`;
    default:
      return `{${ts},"type":"response_item","payload":{"type":"local_shell_call","call_id":"c1","action":${deep}}}`;
  }
}

test("an output nested 200,000 levels deep decodes to a record instead of overflowing the stack", () => {
  for (const objects of [false, true]) {
    const d = decodeLine(deepLine(200_000, objects, 0));
    assert.ok(d.ok && d.record.kind === "tool_output", `deep ${objects ? "object" : "array"} output still a tool output`);
    assert.ok(d.ok && d.record.kind === "tool_output" && d.record.envelope.kind === "opaque", "too deep to read: opaque");
  }
});

test("property: a deeply nested field costs at most its own line, never the rollout", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 60_000 }), fc.boolean(), fc.integer({ min: 0, max: 4 }), (depth, objects, where) => {
      const lines = [
        metaLine("m"),
        startLine(1, "t"),
        callLine(2, "c1", "shell", { command: "ls" }),
        deepLine(depth, objects, where),
        outputLine(6, "c1", "ok"),
        completeLine(7, "t"),
      ];
      const d = collectRollout(lines);
      assert.equal(d.lines, lines.length, "every line read");
      const kinds = d.records.map((r) => r.kind);
      assert.ok(kinds.includes("task_started") && kinds.includes("task_complete"), "the lines around it still decode");
      const line = decodeLine(lines[3] ?? "");
      assert.ok(line.ok || line.skip === "too_deep", `a record or a typed skip, got ${JSON.stringify(line)}`);
    }),
    { numRuns: 60 },
  );
});
