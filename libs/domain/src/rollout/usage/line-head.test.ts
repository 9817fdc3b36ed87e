import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { decodeLine } from "../decode/decode-line.js";
import { USAGE_HEAD_BYTES, usageLineVerdict } from "./line-head.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const verdictOf = (line: string): string => {
  const b = bytes(line);
  return usageLineVerdict(b.subarray(0, Math.min(b.length, USAGE_HEAD_BYTES)));
};
const TS = '"timestamp":"2026-03-01T10:00:00.123Z"';

test("the producer's token_count, turn_context and session_meta lines are never skipped", () => {
  assert.equal(verdictOf(`{${TS},"type":"event_msg","payload":{"type":"token_count","info":null}}`), "token_count");
  assert.equal(verdictOf(`{${TS},"type":"turn_context","payload":{"model":"gpt-5"}}`), "turn_context");
  assert.equal(verdictOf(`{${TS},"type":"session_meta","payload":{"id":"a","cwd":"/w"}}`), "meta");
  assert.equal(verdictOf('{"type":"turn_context","payload":{"model":"gpt-5"}}'), "turn_context", "a head without timestamp");
  const longStamp = '"timestamp":"2026-03-01T10:00:00.123456789+05:30"';
  assert.equal(verdictOf(`{${longStamp},"type":"event_msg","payload":{"type":"token_count","info":null}}`), "token_count");
});

test("lines whose head names another record are skipped without decoding", () => {
  assert.equal(verdictOf(`{${TS},"type":"response_item","payload":{"type":"message","content":[]}}`), "skip");
  assert.equal(verdictOf(`{${TS},"type":"event_msg","payload":{"type":"agent_message","message":"token_count"}}`), "skip");
  assert.equal(verdictOf(`{${TS},"type":"compacted","payload":{"message":"x"}}`), "skip");
  assert.equal(verdictOf('{"type":"message","role":"user","content":[]}'), "skip", "a legacy bare item");
  assert.equal(verdictOf(""), "skip", "an empty line");
});

test("a head in any other layout is decoded in full rather than trusted", () => {
  const odd = [
    `{"type":"event_msg",${TS},"payload":{"type":"token_count","info":null}}`,
    `{ ${TS},"type":"event_msg","payload":{"type":"token_count"}}`,
    `{${TS},"type":"event_msg","payload":{"info":null,"type":"token_count"}}`,
    `{${TS},"type":"event\\u005fmsg","payload":{"type":"token_count"}}`,
    `{${TS},"type":"event_msg","payload":{"type":"token\\u005fcount"}}`,
    `{"timestamp":"x\\"y","type":"event_msg"}`,
    '{"id":"legacy-meta","timestamp":"2025-01-01T00:00:00Z"}',
    "   ",
    "not json",
  ];
  for (const line of odd) assert.equal(verdictOf(line), "decode", line);
  assert.equal(verdictOf(`{${TS},"type":"event_msg","payload":{"type":"tok`), "decode", "a head cut inside the event type");
});

// Records a skipped line could have hidden: the ones the usage fold or the scope read.
const USAGE_KINDS = new Set(["token_count", "turn_context", "session_meta"]);

test("no line that decodes to a usage record is skipped, whatever its members and their order", () => {
  const name = fc.constantFrom("event_msg", "turn_context", "session_meta", "response_item", "compacted", "message", "token_count", "x");
  const payloadType = fc.constantFrom("token_count", "agent_message", "task_started", "message", "turn_context");
  const member = fc.oneof(
    fc.constant(["timestamp", "2026-03-01T10:00:00Z"] as const),
    name.map((n) => ["type", n] as const),
    fc.tuple(payloadType, fc.boolean()).map(([t, first]) => {
      const payload = first ? { type: t, info: null, model: "m", id: "i" } : { info: null, model: "m", id: "i", type: t };
      return ["payload", payload] as const;
    }),
    fc.constant(["id", "legacy"] as const),
    fc.constant(["record_type", "state"] as const),
  );
  fc.assert(
    fc.property(fc.array(member, { maxLength: 5 }), fc.constantFrom("", " ", "\r"), (members, pad) => {
      const seen = new Set<string>();
      // One member per name, as JSON text a producer could write.
      const unique = members.filter(([k]) => !seen.has(k) && seen.add(k) !== undefined);
      const line = `${pad === "\r" ? "" : pad}${JSON.stringify(Object.fromEntries(unique))}${pad}`;
      const decoded = decodeLine(line);
      if (!decoded.ok || !USAGE_KINDS.has(decoded.record.kind)) return;
      const verdict = verdictOf(line);
      assert.notEqual(verdict, "skip", `${line} decodes to ${decoded.record.kind}`);
      if (decoded.record.kind !== "session_meta")
        assert.ok(verdict === "decode" || verdict === "token_count" || verdict === "turn_context", line);
    }),
    { numRuns: 2000 },
  );
});
