import assert from "node:assert/strict";
import { test } from "node:test";
import { AnalyticsError } from "../errors.js";
import { parseInstant } from "./options.js";

test("--now refuses a date that does not exist and a time without an offset, instead of rolling over or guessing", () => {
  assert.equal(parseInstant("--now", "2026-02-28"), Date.UTC(2026, 1, 28), "a date is its UTC midnight");
  assert.equal(parseInstant("--now", "2026-02-28T12:00:00.5+01:00"), Date.UTC(2026, 1, 28, 11, 0, 0, 500), "an offset is honoured");
  assert.equal(parseInstant("--now", "1767225600000"), 1_767_225_600_000, "Unix milliseconds");
  for (const bad of ["2026-02-30", "2026-02-30T00:00:00Z", "2026-04-01T12:00:00", "2026-13-01", "yesterday"])
    assert.throws(
      () => parseInstant("--now", bad),
      (e: unknown) => e instanceof AnalyticsError && e.message.includes("--now"),
      bad,
    );
});
