import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeLine } from "./decode-line.js";
import { collectRollout, RolloutCollector } from "./collect.js";
import { analyzeRollout } from "../analytics/analyze.js";

const TYPES = ["session_meta", "event_msg", "response_item", "compacted", "turn_context", "world_state", "x"];
const PAYLOAD_TYPES = [
  "task_started",
  "turn_complete",
  "turn_aborted",
  "token_count",
  "agent_message",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "local_shell_call",
  "message",
  "thread_rolled_back",
];

const payloadArb = fc.dictionary(
  fc.constantFrom(
    "type",
    "turn_id",
    "duration_ms",
    "reason",
    "call_id",
    "name",
    "arguments",
    "input",
    "output",
    "info",
    "source",
    "id",
    "message",
    "role",
    "content",
    "action",
    "num_turns",
  ),
  fc.oneof(fc.constantFrom(...PAYLOAD_TYPES), fc.jsonValue({ maxDepth: 2 })),
);
const lineArb = fc.oneof(
  fc.string(),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc
    .record({ timestamp: fc.oneof(fc.string(), fc.constant("2026-03-01T00:00:00Z")), type: fc.constantFrom(...TYPES), payload: payloadArb })
    .map((v) => JSON.stringify(v)),
);

test("property: any line decodes to a record or a typed skip, never a throw", () => {
  fc.assert(
    fc.property(lineArb, (line) => {
      const d = decodeLine(line);
      assert.equal(typeof d.ok, "boolean", "typed result");
      if (!d.ok)
        assert.ok(
          ["blank", "not_json", "not_object", "unknown_type", "not_analysed", "missing_payload", "too_long", "too_deep"].includes(d.skip),
          d.skip,
        );
    }),
    { numRuns: 2000 },
  );
});

test("property: arbitrary lines fold and analyse without throwing, streaming or whole", () => {
  fc.assert(
    fc.property(fc.array(lineArb, { maxLength: 30 }), fc.boolean(), (lines, fresh) => {
      const whole = collectRollout(lines);
      const streamed = new RolloutCollector();
      for (const l of lines) streamed.push(l);
      assert.deepEqual(streamed.result(), whole, "streaming equals whole-file decoding");
      const a = analyzeRollout({ meta: whole.meta, records: whole.records, fresh });
      assert.equal(a.calls, whole.records.filter((r) => r.kind === "tool_call").length, "every call is classified");
    }),
    { numRuns: 300 },
  );
});
