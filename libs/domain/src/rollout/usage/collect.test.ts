import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { UsageCollector } from "./collect.js";

const figures = { input_tokens: 10, cached_input_tokens: 4, output_tokens: 3, reasoning_output_tokens: 1, total_tokens: 13 };
// A reply after the turn context: its tokens are booked to the model the context left in force.
const REPLY = JSON.stringify({
  timestamp: "2026-03-01T10:00:01.000Z",
  type: "event_msg",
  payload: { type: "token_count", info: { total_token_usage: figures, last_token_usage: figures, model_context_window: 1 } },
});

const model = fc.oneof(
  fc.constantFrom("gpt-5", " gpt-5-codex ", "", "  ", "o3\u00a0", "constructor"),
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.constant(null),
  fc.constant(["gpt-5"]),
);
const payload = fc.oneof(
  fc.record(
    { model, cwd: fc.constant("/w"), sandbox_policy: fc.constant({ type: "read-only", writable_roots: ["/w"] }) },
    { requiredKeys: [] },
  ),
  fc.constantFrom(null, "text", 3),
  fc.constant([{ model: "gpt-5" }]),
);
const type = fc.constantFrom("turn_context", "event_msg", "session_meta", "");
// Lines a turn_context head can start: whole JSON in the producer's member order, another order, a
// type named twice (the last one counts), a torn or padded line.
const line = fc
  .tuple(type, payload, fc.constantFrom("plain", "reordered", "twice", "torn", "padded", "no payload"), fc.integer({ min: 1, max: 60 }))
  .map(([lastType, body, shape, cut]) => {
    const head = '{"timestamp":"2026-03-01T10:00:00.000Z","type":"turn_context"';
    const payloadText = JSON.stringify(body) ?? "null";
    switch (shape) {
      case "reordered":
        return `{"payload":${payloadText},"type":"turn_context","timestamp":"2026-03-01T10:00:00.000Z"}`;
      case "twice":
        return `${head},"payload":${payloadText},"type":${JSON.stringify(lastType)}}`;
      case "torn":
        return `${head},"payload":${payloadText}}`.slice(0, -cut);
      case "padded":
        return ` \t${head},"payload":${payloadText}}\r `;
      case "no payload":
        return `${head}}`;
      default:
        return `${head},"payload":${payloadText}}`;
    }
  });

test("a turn_context read for its model alone books the replies after it as the full decoding does", () => {
  fc.assert(
    fc.property(fc.array(line, { minLength: 1, maxLength: 3 }), (lines) => {
      const fast = new UsageCollector();
      const general = new UsageCollector();
      for (const text of lines) {
        fast.pushTurnContext(text);
        general.push(text);
        fast.push(REPLY);
        general.push(REPLY);
      }
      assert.deepEqual(fast.result("s"), general.result("s"));
    }),
    { numRuns: 3000 },
  );
});

test("a turn_context whose payload is no object leaves the model in force", () => {
  const collector = new UsageCollector();
  collector.pushTurnContext('{"timestamp":"2026-03-01T10:00:00.000Z","type":"turn_context","payload":{"model":" gpt-5 "}}');
  collector.pushTurnContext('{"timestamp":"2026-03-01T10:00:00.500Z","type":"turn_context","payload":["o3"]}');
  collector.push(REPLY);
  assert.deepEqual(Object.keys(collector.result("s").usage.byDay["2026-03-01"] ?? {}), ["gpt-5"]);
});
