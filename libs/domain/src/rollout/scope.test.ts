import { test } from "node:test";
import assert from "node:assert/strict";
import { cleanPath, isFresh, sameCwd } from "./scope.js";
import { RolloutError } from "./errors.js";

test("freshness is inclusive, needs a window and a clock, and distrusts far-future stamps", () => {
  const now = 1_800_000_000_000;
  assert.equal(isFresh({ mtimeMs: now - 120_000, nowMs: now, freshWithinMs: 120_000 }), true, "edge is fresh");
  assert.equal(isFresh({ mtimeMs: now - 120_001, nowMs: now, freshWithinMs: 120_000 }), false, "past the window");
  assert.equal(isFresh({ mtimeMs: now, nowMs: now, freshWithinMs: 0 }), false, "no window, nothing fresh");
  assert.equal(isFresh({ mtimeMs: now + 60_000, nowMs: now, freshWithinMs: 120_000 }), true, "small skew");
  assert.equal(isFresh({ mtimeMs: now + 86_400_000, nowMs: now, freshWithinMs: 120_000 }), false, "far future");
  assert.throws(
    () => isFresh({ mtimeMs: 0, nowMs: 0, freshWithinMs: 1 }),
    (e: unknown) => e instanceof RolloutError && e.code === "CLOCK_REQUIRED",
    "clock required",
  );
});

test("cwd scope compares cleaned paths, case-sensitively unless asked", () => {
  assert.equal(cleanPath(" /a/./b//c/ "), "/a/b/c", "cleaned");
  assert.equal(cleanPath("/a/b/../c"), "/a/c", "parent folded");
  assert.equal(cleanPath("C:\\Work\\x\\"), "C:/Work/x", "drive path");
  assert.equal(sameCwd("/a/b/", "/a/./b"), true, "same after cleaning");
  assert.equal(sameCwd("/A/b", "/a/b"), false, "case matters by default");
  assert.equal(sameCwd("/A/b", "/a/b", { caseInsensitive: true }), true, "case folded on request");
  assert.equal(sameCwd("", "/a"), false, "a rollout without cwd is out of any scope");
});
