import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { analyzeRollout } from "./analytics/analyze.js";
import { collectRollout } from "./decode/collect.js";
import { criticalPath, type TaskSplit } from "./critical-path.js";
import { linesOf, stepArb } from "./testing/arbitraries.js";

test("critical rows drop empty buckets and rank by ms then category", () => {
  const split: TaskSplit = {
    startMs: 0,
    endMs: 10,
    wallMs: 10,
    toolMs: 4,
    waitMs: 0,
    modelMs: 4,
    idleMs: 2,
    idleGaps: 1,
    maxGapMs: 2,
    byTool: { b: 2, a: 2 },
    compactions: 0,
    firstModelMs: null,
  };
  assert.deepEqual(
    criticalPath(split),
    [
      { category: "model", ms: 4 },
      { category: "idle", ms: 2 },
      { category: "tool:a", ms: 2 },
      { category: "tool:b", ms: 2 },
    ],
    "ranked rows",
  );
});

test("property: the tool / wait / model / idle split never exceeds a task's wall time", () => {
  fc.assert(
    fc.property(fc.array(stepArb, { maxLength: 60 }), fc.boolean(), (steps, fresh) => {
      const d = collectRollout(linesOf(steps));
      const a = analyzeRollout({ meta: d.meta, records: d.records, fresh });
      for (const t of a.tasks) {
        const booked = t.toolMs + t.waitMs + t.modelMs + t.idleMs;
        assert.ok(booked <= t.wallMs, `task ${t.turnId}: booked ${booked} > wall ${t.wallMs}`);
        assert.ok(
          [t.toolMs, t.waitMs, t.modelMs, t.idleMs].every((v) => v >= 0),
          "no negative bucket",
        );
        const critical = t.critical.reduce((n, c) => n + c.ms, 0);
        assert.equal(critical, booked, "critical rows add up to the booked time");
      }
    }),
    { numRuns: 300 },
  );
});
