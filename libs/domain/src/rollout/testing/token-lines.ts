// Random `token_count` lines for the tests of their producer-layout reader (test support only;
// fast-check is a dev dependency).
import fc from "fast-check";

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

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
/** A `token_count` line as the producer writes it, with random figures, times and rate limits. */
export const producerTokenLine: fc.Arbitrary<string> = fc
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

/** Bytes of a producer line, or of one edited so that its head stays a token_count's but what it decodes to may change, or break. */
export const editedTokenLine: fc.Arbitrary<Uint8Array> = fc.oneof(
  producerTokenLine.map(encode),
  fc.tuple(producerTokenLine, fc.nat()).map(([l, n]) => encode(l).subarray(0, n % (l.length + 1))),
  fc.tuple(producerTokenLine, fc.nat(), fc.string({ unit: "binary", maxLength: 3 })).map(([l, n, s]) => {
    const at = n % (l.length + 1);
    return encode(l.slice(0, at) + s + l.slice(at));
  }),
  fc.tuple(producerTokenLine, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([l, n, b]) => {
    const bytes = encode(l);
    bytes[n % bytes.length] = b;
    return bytes;
  }),
  fc
    .tuple(
      producerTokenLine,
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
    .tuple(producerTokenLine, fc.constantFrom("1.0", "01", "-1", "1e3", "12345678901234567", '"5"', "null"))
    .map(([l, n]) => encode(l.replace(/"output_tokens":\d+/, `"output_tokens":${n}`))),
);
