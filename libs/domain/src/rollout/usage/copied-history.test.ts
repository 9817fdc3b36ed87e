// A forked or spawned rollout's leading replies written in one burst are its parent's history; how
// far the burst runs decides how much of the rollout is counted (ccusage's rule, divergences U-6).
import assert from "node:assert/strict";
import { test } from "node:test";
import { records, sessionMetaLine, tokenLine, u } from "../testing/usage-lines.js";
import { usageOfRecords } from "./fold.js";

const FORKED = sessionMetaLine("2026-03-01T09:59:59.000Z", "child", { forked_from_id: "parent" });
const at = (ms: number): string => new Date(Date.UTC(2026, 2, 1, 10) + ms).toISOString();
// The n-th reply of a run that adds 100 input and 10 output tokens each time.
const nth = (n: number, ts: string): string => tokenLine(ts, u(100 * n, 0, 10 * n), u(100, 0, 10));
const inputOf = (lines: string[], day = "2026-03-01"): number | undefined =>
  usageOfRecords(records([FORKED, ...lines]), "child").byDay[day]?.["unknown"]?.input;

test("a copied burst runs on while each reply follows the copied one before it within a second, however long the burst", () => {
  // 900 ms apart: the fourth reply is 2.7 s after the first, still inside the burst.
  const lines = [nth(1, at(0)), nth(2, at(900)), nth(3, at(1800)), nth(4, at(2700)), nth(5, at(8000))];
  assert.equal(inputOf(lines), 100, "only the reply after the pause is the child's");
  assert.equal(usageOfRecords(records([FORKED, ...lines]), "child").replayed, 4);
  // A second and a millisecond after the first, yet a second after the one before it: copied.
  assert.equal(inputOf([nth(1, at(0)), nth(2, at(1000)), nth(3, at(1001)), nth(4, at(3000))]), 100);
});

test("a repeated reply inside a copied burst does not carry it on: the burst runs from the last reply that added tokens", () => {
  const lines = [nth(1, at(0)), nth(1, at(900)), nth(2, at(1500)), nth(3, at(8000))];
  // The repeat at 900 ms adds nothing, so the reply at 1.5 s is 1.5 s after the burst's last: the child's own.
  assert.equal(inputOf(lines), 200);
});

test("an undated reply neither starts nor ends a copied burst", () => {
  // Undated first: counted as undated; the dated burst after it is still found.
  const before = usageOfRecords(records([FORKED, nth(1, ""), nth(2, at(200)), nth(3, at(300)), nth(4, at(8000))]), "child");
  assert.equal(before.byDay["2026-03-01"]?.["unknown"]?.input, 100);
  assert.equal(before.byDay["undated"]?.["unknown"]?.input, 100);
  // Undated inside the burst: part of the copy, and the burst goes on past it.
  const inside = usageOfRecords(records([FORKED, nth(1, at(0)), nth(2, ""), nth(3, at(300)), nth(4, at(8000))]), "child");
  assert.deepEqual(Object.keys(inside.byDay), ["2026-03-01"]);
  assert.equal(inside.byDay["2026-03-01"]?.["unknown"]?.input, 100);
  assert.equal(inside.replayed, 3);
  // Undated right after a first reply that turns out to be alone: both are the child's, in order.
  const alone = usageOfRecords(records([FORKED, nth(1, at(0)), nth(2, ""), nth(3, at(5000))]), "child");
  assert.equal(alone.byDay["2026-03-01"]?.["unknown"]?.input, 200);
  assert.equal(alone.byDay["undated"]?.["unknown"]?.input, 100);
  assert.equal(alone.replayed, 0);
});

test("a forked rollout's lone first reply counts its own figures, not the parent's totals it carries", () => {
  // The first totals hold the parent's 10,000 input tokens; the reply itself used 100.
  const lines = [tokenLine(at(0), u(10_000, 0, 100), u(100, 0, 10)), tokenLine(at(8000), u(10_100, 0, 110), u(100, 0, 10))];
  assert.equal(inputOf(lines), 200);
});

test("a session_meta naming a parent after other lines still marks the rollout as a child (ccusage reads only the first line)", () => {
  const lines = [tokenLine(at(0), null, null), FORKED, nth(1, at(0)), nth(2, at(300)), nth(3, at(8000))];
  const usage = usageOfRecords(records(lines), "child");
  assert.equal(usage.byDay["2026-03-01"]?.["unknown"]?.input, 100);
  assert.equal(usage.replayed, 2);
});
