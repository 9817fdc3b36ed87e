import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { UsageCollector } from "./collect.js";

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("latin1");
const utf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

// The usage of one line read through the producer-layout reader (the general decoder when it
// declines), and through the general decoder alone; and whether the reader took the line.
function bothWays(bytes: Uint8Array): { fast: unknown; general: unknown; taken: boolean } {
  const viaReader = new UsageCollector();
  const taken = viaReader.pushTokenCountLatin1(latin1(bytes));
  if (!taken) viaReader.pushTokenCount(utf8(bytes));
  const general = new UsageCollector();
  general.pushTokenCount(utf8(bytes));
  return { fast: viaReader.result("s"), general: general.result("s"), taken };
}

const count = fc.oneof(fc.constantFrom(0, 1, 9, 10, 999_999_999_999_999), fc.nat());
const figures = fc.record({
  input_tokens: count,
  cached_input_tokens: count,
  output_tokens: count,
  reasoning_output_tokens: count,
  total_tokens: count,
});
const stamp = fc.oneof(
  fc
    .date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constantFrom(
    "",
    "2026-02-30T10:00:00.000Z",
    "2026-03-01T10:00:00Z",
    "2026-03-01T10:00:00.123456+05:30",
    "not a time",
    "2026-03-01T25:00:00.000Z",
  ),
);
// The producer's rate_limits, and any other JSON value in its place.
const rateLimits = fc.oneof(
  fc.constant({ limit_id: "codex", limit_name: null, primary: { used_percent: 2.5, window_minutes: 300, resets_at: 1_774_251_876 } }),
  fc.jsonValue({ maxDepth: 3 }),
);
const producerLine = fc
  .record({
    stamp,
    info: fc.option(fc.record({ total: figures, last: figures, window: count }), { nil: null }),
    rateLimits,
  })
  .map(({ stamp, info, rateLimits }) =>
    JSON.stringify({
      timestamp: stamp,
      type: "event_msg",
      payload: {
        type: "token_count",
        info: info === null ? null : { total_token_usage: info.total, last_token_usage: info.last, model_context_window: info.window },
        rate_limits: rateLimits,
      },
    }),
  );

// Edits that keep the head a token_count's but may change what the line decodes to, or break it.
const edited = fc.oneof(
  producerLine.map(encode),
  fc.tuple(producerLine, fc.nat()).map(([l, n]) => encode(l).subarray(0, n % (l.length + 1))),
  fc.tuple(producerLine, fc.nat(), fc.string({ unit: "binary", maxLength: 3 })).map(([l, n, s]) => {
    const at = n % (l.length + 1);
    return encode(l.slice(0, at) + s + l.slice(at));
  }),
  fc.tuple(producerLine, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([l, n, b]) => {
    const bytes = encode(l);
    bytes[n % bytes.length] = b;
    return bytes;
  }),
  fc
    .tuple(
      producerLine,
      fc.constantFrom(
        ',"type":"response_item"',
        ',"payload":null',
        ',"info":null',
        " ",
        "\r",
        "\u00a0",
        ',"timestamp":"2020-01-01T00:00:00Z"',
      ),
    )
    .map(([l, extra]) => encode(`${l.slice(0, -1)}${extra}}`)),
  fc
    .tuple(producerLine, fc.constantFrom("1.0", "01", "-1", "1e3", "12345678901234567", '"5"', "null"))
    .map(([l, n]) => encode(l.replace(/"output_tokens":\d+/, `"output_tokens":${n}`))),
);

test("a token_count line read by the producer-layout reader folds exactly as the general decoder folds it", () => {
  fc.assert(
    fc.property(edited, (bytes) => {
      const { fast, general } = bothWays(bytes);
      assert.deepEqual(fast, general);
    }),
    { numRuns: 3000 },
  );
});

test("the producer's own token_count lines are taken by the reader, with info or without", () => {
  fc.assert(
    fc.property(producerLine, (line) => {
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
