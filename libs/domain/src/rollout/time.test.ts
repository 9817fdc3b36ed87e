import { test } from "node:test";
import assert from "node:assert/strict";
import { parseTimestamp } from "./time.js";

test("RFC 3339 timestamps parse to Unix ms, fractions and offsets included", () => {
  assert.equal(parseTimestamp("2026-02-23T12:19:42.561Z"), Date.parse("2026-02-23T12:19:42.561Z"), "ms precision");
  assert.equal(parseTimestamp("2026-02-23T12:19:42Z"), Date.parse("2026-02-23T12:19:42Z"), "no fraction");
  assert.equal(parseTimestamp("2026-02-23T12:19:42.123456789Z"), Date.parse("2026-02-23T12:19:42.123Z"), "nanoseconds truncated");
  assert.equal(parseTimestamp("2026-02-23T12:19:42.5Z"), Date.parse("2026-02-23T12:19:42.500Z"), "short fraction");
  assert.equal(parseTimestamp("2026-02-23T14:19:42+02:00"), Date.parse("2026-02-23T12:19:42Z"), "positive offset");
  assert.equal(parseTimestamp("2026-02-23T10:19:42-02:00"), Date.parse("2026-02-23T12:19:42Z"), "negative offset");
});

test("malformed timestamps read as null", () => {
  for (const raw of ["", "yesterday", "2026-02-23", "2026-13-01T00:00:00Z", "2026-02-23T25:00:00Z", "2026-02-23 12:00:00Z", "1700000000"]) {
    assert.equal(parseTimestamp(raw), null, raw);
  }
});
