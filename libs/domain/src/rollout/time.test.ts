import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
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

// A Date built with setUTCFullYear, which takes years 0–99 literally (Date.UTC does not).
function utc(year: number, month: number, day: number, rest = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime() + rest;
}

test("years 0000 to 0099 are read as written, not as 1900 to 1999", () => {
  assert.equal(parseTimestamp("0000-01-01T00:00:00Z"), -62_167_219_200_000, "year zero, the proleptic Gregorian 1 BC");
  assert.equal(parseTimestamp("0099-12-31T23:59:59Z"), utc(99, 12, 31, 86_399_000), "year 99");
  assert.equal(parseTimestamp("0001-03-01T00:00:00.250Z"), utc(1, 3, 1, 250), "year 1 with a fraction");
  assert.equal(parseTimestamp("0004-02-29T00:00:00Z"), utc(4, 2, 29), "year 4 is a leap year");
  assert.equal(parseTimestamp("9999-12-31T23:59:59.999Z"), Date.parse("9999-12-31T23:59:59.999Z"), "the last year");
});

test("impossible dates, times and offsets read as null instead of rolling over", () => {
  const impossible = [
    "2026-02-31T00:00:00Z", // no 31st of February
    "2026-02-29T00:00:00Z", // 2026 is not a leap year
    "1900-02-29T00:00:00Z", // century years are leap years only every 400
    "2026-04-31T00:00:00Z",
    "2026-00-10T00:00:00Z",
    "2026-01-00T00:00:00Z",
    "2026-01-01T24:00:00Z",
    "2026-01-01T12:60:00Z",
    "2026-12-31T23:59:60Z", // Go's parser has no leap second
    "2026-01-01T12:00:00+99:99",
    "2026-01-01T12:00:00+25:00",
    "2026-01-01T12:00:00-00:61",
  ];
  for (const raw of impossible) assert.equal(parseTimestamp(raw), null, raw);
  assert.equal(parseTimestamp("2000-02-29T00:00:00Z"), Date.parse("2000-02-29T00:00:00Z"), "2000 is a leap year");
});

test("timestamps follow the reference parser's edges: case, separators, offsets of 24 hours", () => {
  // Accepted by Go's time.Parse with the RFC 3339 layout.
  assert.equal(parseTimestamp("2026-01-01T12:00:00+24:00"), Date.parse("2025-12-31T12:00:00Z"), "a 24-hour offset");
  assert.equal(parseTimestamp("2026-01-01T12:00:00-00:60"), Date.parse("2026-01-01T13:00:00Z"), "a 60-minute offset");
  assert.equal(parseTimestamp("2026-01-01T12:00:00,5Z"), Date.parse("2026-01-01T12:00:00.500Z"), "a comma before the fraction");
  assert.equal(parseTimestamp("2026-01-01T7:00:00Z"), Date.parse("2026-01-01T07:00:00Z"), "a one-digit hour");
  // Refused by it.
  for (const raw of [
    "2026-01-01t12:00:00Z",
    "2026-01-01T12:00:00z",
    " 2026-01-01T12:00:00Z",
    "2026-01-01T12:00:00Z ",
    "2026-01-01T12:00:00.Z",
    "+2026-01-01T12:00:00Z",
  ]) {
    assert.equal(parseTimestamp(raw), null, JSON.stringify(raw));
  }
});

test("property: a UTC `Z` timestamp reads as the same instant written with a +00:00 offset, valid or not", () => {
  const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^\\d{${min},${max}}$`));
  fc.assert(
    fc.property(
      fc.tuple(digits(4, 4), digits(2, 2), digits(2, 2), digits(1, 2), digits(2, 2), digits(2, 2)),
      fc.oneof(
        fc.constant(""),
        digits(0, 12).map((f) => `.${f}`),
        digits(1, 4).map((f) => `,${f}`),
        fc.constantFrom(".x1", ".1a", ":5"),
      ),
      ([y, mo, d, h, mi, s], frac) => {
        const stem = `${y}-${mo}-${d}T${h}:${mi}:${s}${frac}`;
        assert.equal(parseTimestamp(`${stem}Z`), parseTimestamp(`${stem}+00:00`), stem);
      },
    ),
    { numRuns: 3000 },
  );
});
