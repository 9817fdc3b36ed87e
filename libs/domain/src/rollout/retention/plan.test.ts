import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decideRetention } from "./plan.js";
import { RolloutError } from "../errors.js";
import { MAX_BYTES, type ByteCount, type RetentionContract, type SessionRecord } from "./types.js";
import { retentionJson } from "./json-text.js";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 5, 1);
const contract: RetentionContract = { nowMs: NOW, activeWithinMs: 2 * HOUR, warmWithinMs: 48 * HOUR, rawBytesCap: 0 };

function s(id: string, ageHours: number, bytes: ByteCount, extra: Partial<SessionRecord> = {}): SessionRecord {
  return { id, bytes, modTimeMs: NOW - ageHours * HOUR, ...extra };
}

test("rules apply in order: compacted, active or live, protected, warm, expired", () => {
  const m = decideRetention(
    [
      s("c", 100, 5, { compacted: true }),
      s("l", 100, 10, { live: true, protected: ["pin"] }),
      s("a", 2, 10),
      s("p", 100, 10, { protected: ["active_goal"] }),
      s("w", 48, 10),
      s("e", 49, 10),
    ],
    contract,
  );
  assert.deepEqual(
    m.decisions.map((d) => [d.id, d.class, d.expire ?? false, d.reason ?? ""]),
    [
      ["c", "compacted", false, ""],
      ["l", "active", false, ""],
      ["a", "active", false, ""],
      ["p", "warm_evidence", false, ""],
      ["w", "warm_evidence", false, ""],
      ["e", "expired", true, "age_past_warm_window"],
    ],
    "classes in input order",
  );
  assert.deepEqual(
    [m.before_bytes, m.reclaimed_bytes, m.after_bytes, m.cap_satisfied, m.compacted_bytes],
    [50n, 10n, 40n, true, 5n],
    "bytes, compacted kept apart",
  );
});

test("the byte cap expires unprotected warm sessions oldest first, ties by id", () => {
  const m = decideRetention(
    [s("new", 10, 10), s("b", 20, 10), s("a", 20, 10), s("keep", 30, 10, { protected: ["pin"] }), s("act", 1, 10)],
    { ...contract, rawBytesCap: 30 },
  );
  assert.deepEqual(
    m.decisions.filter((d) => d.expire).map((d) => [d.id, d.reason]),
    [
      ["b", "raw_bytes_over_cap"],
      ["a", "raw_bytes_over_cap"],
    ],
    "the two oldest go (listed in input order)",
  );
  assert.deepEqual([m.after_bytes, m.cap_satisfied], [30n, true], "cap met");
  const one = decideRetention([s("new", 10, 10), s("b", 20, 10), s("a", 20, 10)], { ...contract, rawBytesCap: 20 });
  assert.deepEqual(
    one.decisions.filter((d) => d.expire).map((d) => d.id),
    ["a"],
    "equal ages break by id",
  );
});

test("an unmet cap splits the overage into protected and active bytes", () => {
  const m = decideRetention([s("p", 30, 40, { protected: ["referee_evidence"] }), s("act", 1, 50)], { ...contract, rawBytesCap: 60 });
  assert.deepEqual(
    [m.cap_satisfied, m.protected_over_cap_bytes, m.active_over_cap_bytes],
    [false, 30n, 0n],
    "protected bytes explain the overage",
  );
  const act = decideRetention([s("act", 1, 100), s("p", 30, 10, { protected: ["pin"] })], { ...contract, rawBytesCap: 60 });
  assert.deepEqual([act.protected_over_cap_bytes, act.active_over_cap_bytes], [10n, 40n], "active share named separately");
});

test("bad input is refused with the field named", () => {
  const check = (fn: () => unknown, code: string, field: string): void => {
    assert.throws(
      fn,
      (e: unknown) => e instanceof RolloutError && e.code === code && e.field === field && e.message.startsWith("rollout: "),
      `${code} ${field}`,
    );
  };
  check(() => decideRetention([], { ...contract, nowMs: 0 }), "CLOCK_REQUIRED", "now_unix_ms");
  check(() => decideRetention([s("x", 1, -1)], contract), "INVALID_ARGUMENT", "sessions[0].bytes");
  check(() => decideRetention([s("x", 1, 1), s("x", 2, 1)], contract), "INVALID_ARGUMENT", "sessions[1].id");
  check(
    () => decideRetention([s("x", 1, 1, { protected: ["whim" as "pin"] })], contract),
    "INVALID_ARGUMENT",
    "sessions[0].protect_reasons",
  );
  check(() => decideRetention([s("x", 1, 1, { modTimeMs: 9e15 })], contract), "INVALID_ARGUMENT", "sessions[0].mod_time_unix_ms");
  check(() => decideRetention([s("x", 1, 1.5)], contract), "INVALID_ARGUMENT", "sessions[0].bytes");
});

const sessionArb = fc.record({
  ageHours: fc.integer({ min: -5, max: 200 }),
  bytes: fc.integer({ min: 0, max: 1000 }),
  live: fc.boolean(),
  compacted: fc.boolean(),
  protect: fc.boolean(),
});

test("property: plans are deterministic and never expire a protected or active session", () => {
  fc.assert(
    fc.property(fc.array(sessionArb, { maxLength: 20 }), fc.integer({ min: 0, max: 5000 }), (raw, cap) => {
      const sessions = raw.map((r, i) =>
        s(`s${i}`, r.ageHours, r.bytes, { live: r.live, compacted: r.compacted, ...(r.protect ? { protected: ["pin"] as const } : {}) }),
      );
      const c = { ...contract, rawBytesCap: cap };
      const a = decideRetention(sessions, c);
      const b = decideRetention(
        sessions.map((x) => ({ ...x })),
        c,
      );
      assert.deepEqual(a, b, "same input, same plan");
      a.decisions.forEach((d, i) => {
        const src = sessions[i];
        assert.equal(d.id, src?.id, "input order");
        const active = src?.live === true || NOW - (src?.modTimeMs ?? 0) <= c.activeWithinMs;
        if (d.expire === true) {
          assert.ok(src?.protected === undefined, `protected ${d.id} expired`);
          assert.ok(!active && src?.compacted !== true, `active or compacted ${d.id} expired`);
        }
      });
      assert.ok(a.after_bytes <= a.before_bytes, "never grows");
      if (a.cap_satisfied === false) assert.ok(a.after_bytes > BigInt(cap), "unmet only when over the cap");
    }),
    { numRuns: 300 },
  );
});

test("byte totals are exact integers past 2^53, where floating-point sums lose the last byte", () => {
  const big = 2 ** 53 - 1;
  const m = decideRetention([s("a", 100, big), s("b", 100, 2), s("c", 1, 1n)], contract);
  assert.equal(m.before_bytes, 9_007_199_254_740_994n, "2^53 - 1 + 2 + 1, exactly");
  assert.equal(m.reclaimed_bytes, 9_007_199_254_740_993n, "both old sessions expire, exactly");
  assert.equal(m.after_bytes, 1n, "one byte stays");
  assert.equal(retentionJson(m).match(/"before_bytes":(\d+)/)?.[1], "9007199254740994", "the JSON carries every digit");
});

test("sizes up to 2^64 - 1 are planned, and a total past it is refused naming the session that overflows", () => {
  const max = MAX_BYTES;
  const m = decideRetention([s("a", 100, max)], { ...contract, rawBytesCap: max - 1n });
  assert.deepEqual([m.before_bytes, m.reclaimed_bytes, m.after_bytes], [max, max, 0n], "the largest size");
  assert.throws(
    () => decideRetention([s("a", 100, max), s("b", 100, 0), s("c", 100, 1)], contract),
    (e: unknown) => e instanceof RolloutError && e.code === "INVALID_ARGUMENT" && e.field === "sessions[2].bytes",
    "the third session brings the total past 2^64 - 1",
  );
  assert.throws(
    () => decideRetention([s("a", 100, max + 1n)], contract),
    (e: unknown) => e instanceof RolloutError && e.field === "sessions[0].bytes",
    "one size past it",
  );
  assert.throws(
    () => decideRetention([], { ...contract, rawBytesCap: -1n }),
    (e: unknown) => e instanceof RolloutError && e.field === "raw_bytes_cap",
    "a negative cap",
  );
});
