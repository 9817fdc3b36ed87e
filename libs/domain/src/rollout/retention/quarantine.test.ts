import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { boundQuarantine, type QuarantineItem } from "./quarantine.js";
import { retentionJson } from "./json-text.js";
import { MAX_BYTES } from "./types.js";
import { RolloutError } from "../errors.js";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);

test("age purges (strictly past grace) come before byte purges, oldest first", () => {
  const r = boundQuarantine(
    [
      { id: "b", bytes: 10, quarantinedAtMs: NOW - 2 * DAY },
      { id: "a", bytes: 10, quarantinedAtMs: NOW - 2 * DAY },
      { id: "old", bytes: 5, quarantinedAtMs: NOW - 8 * DAY },
      { id: "edge", bytes: 5, quarantinedAtMs: NOW - 7 * DAY },
      { id: "new", bytes: 10, quarantinedAtMs: NOW - DAY },
    ],
    { nowMs: NOW, maxAgeMs: 7 * DAY, maxBytes: 20 },
  );
  assert.deepEqual(
    r.purge?.map((d) => [d.id, d.reason]),
    [
      ["old", "quarantine_past_grace"],
      ["edge", "quarantine_bytes_over_cap"],
      ["a", "quarantine_bytes_over_cap"],
    ],
    "purges",
  );
  assert.deepEqual(
    r.keep.map((k) => k.id),
    ["b", "new"],
    "kept in age order",
  );
  assert.deepEqual([r.before_bytes, r.reclaimed_bytes, r.after_bytes], [40n, 20n, 20n], "bytes");
  assert.equal(r.keep[1]?.quarantined_at, "2026-05-31T00:00:00Z", "RFC 3339 as Go writes it: no zero fraction");
});

test("writes a quarantine time's fraction only when it is not zero, as the reference's receipt does", () => {
  const r = boundQuarantine([{ id: "q", bytes: 5n, quarantinedAtMs: NOW + 500 }], { nowMs: NOW, maxAgeMs: 0, maxBytes: 0n });
  assert.equal(r.keep[0]?.quarantined_at, "2026-06-01T00:00:00.5Z");
});

test("keep is an empty list, never null, when nothing stays", () => {
  assert.deepEqual(boundQuarantine([], { nowMs: NOW, maxAgeMs: DAY, maxBytes: 0 }).keep, [], "empty input");
  const r = boundQuarantine([{ id: "x", bytes: 1, quarantinedAtMs: NOW - 9 * DAY }], { nowMs: NOW, maxAgeMs: DAY, maxBytes: 0 });
  assert.deepEqual(r.keep, [], "all purged by age");
});

test("the quarantine bound needs a clock", () => {
  assert.throws(
    () => boundQuarantine([], { nowMs: Number.NaN, maxAgeMs: 0, maxBytes: 0 }),
    (e: unknown) => e instanceof RolloutError && e.code === "CLOCK_REQUIRED",
    "clock",
  );
});

test("property: quarantine receipts are deterministic and within the bound", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ bytes: fc.integer({ min: 0, max: 100 }), age: fc.integer({ min: 0, max: 20 }) }), { maxLength: 15 }),
      fc.integer({ min: 0, max: 300 }),
      (raw, maxBytes) => {
        const items = raw.map((r, i) => ({ id: `q${i}`, bytes: r.bytes, quarantinedAtMs: NOW - r.age * DAY }));
        const bound = { nowMs: NOW, maxAgeMs: 10 * DAY, maxBytes };
        const a = boundQuarantine(items, bound);
        assert.deepEqual(a, boundQuarantine([...items].reverse(), bound), "input order does not matter");
        if (maxBytes > 0) assert.ok(a.after_bytes <= BigInt(maxBytes), "within the byte bound");
        assert.equal(a.before_bytes - a.reclaimed_bytes, a.after_bytes, "bytes balance");
      },
    ),
    { numRuns: 200 },
  );
});

test("quarantine bytes add exactly past 2^53, and a total past 2^64 - 1 is refused naming the item", () => {
  const r = boundQuarantine(
    [
      { id: "a", bytes: 2 ** 53 - 1, quarantinedAtMs: NOW - DAY },
      { id: "b", bytes: 2n, quarantinedAtMs: NOW },
    ],
    { nowMs: NOW, maxAgeMs: 0, maxBytes: 2n },
  );
  assert.deepEqual([r.before_bytes, r.reclaimed_bytes, r.after_bytes], [9_007_199_254_740_993n, 9_007_199_254_740_991n, 2n], "exact");
  assert.equal(retentionJson(r).includes('"before_bytes":9007199254740993'), true, "JSON keeps every digit");
  const refused = (items: QuarantineItem[], field: string): void => {
    assert.throws(
      () => boundQuarantine(items, { nowMs: NOW, maxAgeMs: 0, maxBytes: 0 }),
      (e: unknown) => e instanceof RolloutError && e.code === "INVALID_ARGUMENT" && e.field === field,
      field,
    );
  };
  refused(
    [
      { id: "a", bytes: MAX_BYTES, quarantinedAtMs: NOW },
      { id: "b", bytes: 1, quarantinedAtMs: NOW },
    ],
    "items[1].bytes",
  );
  refused([{ id: "a", bytes: 1, quarantinedAtMs: 1e16 }], "items[0].quarantined_at_unix_ms");
});
