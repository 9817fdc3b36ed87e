import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { UsageCollector } from "./collect.js";
import { readTokenLine, readTokenLineBytes } from "./token-line.js";
import { editedTokenLine, producerTokenLine } from "../testing/token-lines.js";

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("latin1");
const utf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

// The usage of one line read through the producer-layout reader (the general decoder when it
// declines), and through the general decoder alone; and whether the reader took the line.
function bothWays(bytes: Uint8Array): { fast: unknown; general: unknown; taken: boolean } {
  const viaReader = new UsageCollector();
  const taken = viaReader.pushTokenCountBytes(bytes, 0, bytes.length);
  if (!taken) viaReader.pushTokenCount(utf8(bytes));
  const general = new UsageCollector();
  general.pushTokenCount(utf8(bytes));
  return { fast: viaReader.result("s"), general: general.result("s"), taken };
}

test("a token_count line read by the producer-layout reader folds exactly as the general decoder folds it", () => {
  fc.assert(
    fc.property(editedTokenLine, (bytes) => {
      const { fast, general } = bothWays(bytes);
      assert.deepEqual(fast, general);
    }),
    { numRuns: 3000 },
  );
});

test("the producer's own token_count lines are taken by the reader, with info or without", () => {
  fc.assert(
    fc.property(producerTokenLine, (line) => {
      const producerShaped = !line.includes('"rate_limits":[') && /"timestamp":"[ -~]*","type"/.test(line);
      const { fast, general, taken } = bothWays(encode(line));
      assert.deepEqual(fast, general);
      // Arrays and deep values in rate_limits are the general decoder's; the producer writes neither.
      if (producerShaped && line.includes('"rate_limits":{"limit_id":"codex"')) assert.ok(taken, line);
    }),
    { numRuns: 500 },
  );
  const real =
    '{"timestamp":"2026-06-05T04:58:26.707Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":22539,"cached_input_tokens":20864,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":22549},"last_token_usage":{"input_tokens":22539,"cached_input_tokens":20864,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":22549},"model_context_window":258400},"rate_limits":{"limit_id":"codex","limit_name":null,"primary":{"used_percent":15.0,"window_minutes":300,"resets_at":1780638395},"secondary":{"used_percent":5.0,"window_minutes":10080,"resets_at":1781146208},"credits":{"has_credits":false,"unlimited":false,"balance":null},"plan_type":"pro","rate_limit_reached_type":null}}}';
  const { fast, general, taken } = bothWays(encode(`${real}\r`));
  assert.ok(taken, "a real producer line, with its carriage return");
  assert.deepEqual(fast, general);
});

test("lines the reader must not take: torn, duplicated members, non-ASCII or escaped timestamps", () => {
  const line = (stamp: string, tail = "") =>
    `{"timestamp":"${stamp}","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":5,"cached_input_tokens":9,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":0},"last_token_usage":{"input_tokens":5,"cached_input_tokens":9,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":0},"model_context_window":1},"rate_limits":null${tail}}}`;
  const cases = [
    line("2026-03-01T10:00:00.000Z").slice(0, -1),
    line("2026-03-01T10:00:00.000Z", ',"type":"agent_message"'),
    line("2026-03-01T10:00:00.000Z\\u005a"),
    line("2026-03-01T10:00:00.000Zé"),
    `${line("2026-03-01T10:00:00.000Z")}x`,
  ];
  for (const text of cases) {
    const { fast, general, taken } = bothWays(encode(text));
    assert.equal(taken, false, text);
    assert.deepEqual(fast, general);
  }
  const { fast, taken } = bothWays(encode(line("2026-03-01T10:00:00.000Z")));
  assert.ok(taken);
  assert.deepEqual(
    (fast as { usage: { byDay: Record<string, unknown> } }).usage.byDay["2026-03-01"],
    { unknown: { input: 5, cachedInput: 5, output: 1, reasoning: 0, total: 6 } },
    "cached input capped at the input, a zero total read as input plus output",
  );
});

test("a figure of 15 digits is read in place and one of 16 is left to the general decoder, which reads both alike", () => {
  const line = (input: string) =>
    `{"timestamp":"2026-03-01T10:00:00.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":${input},"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":0},"last_token_usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":2},"model_context_window":1},"rate_limits":null}}`;
  for (const [input, inPlace] of [
    ["999999999999999", true],
    ["1000000000000000", false],
  ] as const) {
    const { fast, general, taken } = bothWays(encode(line(input)));
    assert.equal(taken, inPlace, input);
    assert.deepEqual(fast, general);
  }
});

// Pieces of the grammar's edges, put anywhere in a producer line: long figures, control and blank
// bytes, broken escapes and numbers, nesting one level too deep.
const edgePiece = fc.constantFrom(
  "9",
  "0",
  "99999999999999",
  "-",
  ".",
  "e",
  "E+",
  "\\",
  "\\u00e9",
  "\\u0G00",
  "\\u00g0",
  "\\x",
  "\x1f",
  "\x7f",
  "\n",
  "\t",
  "\v",
  "\xa0",
  "{}",
  '{"a":{"b":{}}}',
  '{"a":1}',
  "[]",
  ",",
  ":",
  "}",
  '"',
);
const edgeLine = fc.tuple(producerTokenLine, fc.option(fc.nat()), edgePiece, fc.integer({ min: 1, max: 3 })).map(([l, n, piece, times]) => {
  const at = n === null ? l.length : n % (l.length + 1);
  return new Uint8Array(Buffer.from(l.slice(0, at) + piece.repeat(times) + l.slice(at), "latin1"));
});

test("the byte reader takes exactly the lines the expression takes, and reads them alike, in place", () => {
  fc.assert(
    fc.property(fc.oneof(editedTokenLine, edgeLine), fc.nat(40), fc.nat(40), (bytes, before, after) => {
      const framed = new Uint8Array(before + bytes.length + after).fill(0x7d);
      framed.set(bytes, before);
      const fromText = readTokenLine(latin1(bytes));
      const expected = fromText === undefined ? undefined : { usage: fromText.usage, tsMs: fromText.tsMs };
      assert.deepEqual(readTokenLineBytes(framed, before, before + bytes.length), expected);
    }),
    { numRuns: 20000 },
  );
  // A timestamp far longer than any producer's is read as text like any other odd form.
  const long = encode(
    `{"timestamp":"${"9".repeat(300_000)}","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":null}}`,
  );
  assert.deepEqual(readTokenLineBytes(long, 0, long.length), { usage: null, tsMs: null });
});
