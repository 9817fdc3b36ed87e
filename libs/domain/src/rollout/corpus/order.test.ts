import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compareText, mergeRecords, mergeSorted, sortedSample, sumCounts } from "./order.js";

// The merge as a running sum into a map, then sorted, as the object enumerates it (index-like
// keys first, whatever the order they were added in): what the ordered walk must equal.
function sortedSum(a: Record<string, number>, b: Record<string, number>): [string, number][] {
  const out = new Map<string, number>();
  for (const m of [a, b]) for (const [k, v] of Object.entries(m)) out.set(k, (out.get(k) ?? 0) + v);
  return Object.entries(Object.fromEntries([...out].sort(([x], [y]) => compareText(x, y))));
}

// Keys that enumerate out of byte order when mixed: index-like ones, and `__proto__`.
const keyArb = fc.oneof(fc.constantFrom("a", "b", "ab", "Z", "10", "2", "0", "__proto__", "é"), fc.string({ maxLength: 3 }));
const countsArb = fc.dictionary(keyArb, fc.integer({ min: 0, max: 50 }));

test("sumCounts walks ordered maps and sorts others, and both give the byte-ordered running sum", () => {
  fc.assert(
    fc.property(countsArb, countsArb, (a, b) => {
      const ordered = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).sort(([x], [y]) => compareText(x, y)));
      const want = sortedSum(a, b);
      assert.deepEqual(Object.entries(sumCounts(a, b)), want, "as written");
      assert.deepEqual(Object.entries(sumCounts(ordered(a), ordered(b))), want, "ordered first");
    }),
    { numRuns: 300 },
  );
});

test("mergeRecords combines a key on both sides, maps one side's values, and keeps byte order", () => {
  const merged = mergeRecords<string>(
    { a: "1", c: "3" },
    { b: "2", c: "4" },
    { both: (x, y) => `${x}+${y}`, left: (x) => `L${x}`, right: (y) => `R${y}` },
  );
  assert.deepEqual(Object.entries(merged), [
    ["a", "L1"],
    ["b", "R2"],
    ["c", "3+4"],
  ]);
  const unordered = mergeRecords<string>({ c: "3", a: "1" }, { b: "2" }, { both: (x, y) => x + y });
  assert.deepEqual(Object.keys(unordered), ["a", "b", "c"], "a map out of order is sorted");
});

test("mergeSorted gives the ascending merge whether or not the samples interleave", () => {
  const sampleArb = fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 8 }).map((xs) => xs.sort((x, y) => x - y));
  fc.assert(
    fc.property(sampleArb, sampleArb, (a, b) => {
      assert.deepEqual(
        mergeSorted(a, b),
        [...a, ...b].sort((x, y) => x - y),
      );
    }),
    { numRuns: 300 },
  );
});

test("sortedSample orders short and long samples as the comparator sort does, -0, NaN and infinities included", () => {
  const valueArb = fc.oneof(fc.double(), fc.constantFrom(0, -0, Number.NaN, Number.POSITIVE_INFINITY), fc.integer({ min: -3, max: 3 }));
  fc.assert(
    fc.property(fc.array(valueArb, { maxLength: 60 }), (xs) => {
      assert.deepEqual(
        sortedSample(xs),
        [...xs].sort((x, y) => x - y),
      );
    }),
    { numRuns: 500 },
  );
});

test("a name beyond U+FFFF sorts after one from U+E000 to U+FFFF, as UTF-8 bytes and Go order them, not before as UTF-16 does", () => {
  assert.equal(compareText("\uff01", "\u{1f600}"), -1, "fullwidth ! before an emoji");
  assert.deepEqual(Object.keys(sumCounts({ "\u{1f600}": 1 }, { "\uff01": 1 })), ["\uff01", "\u{1f600}"], "merged map keys");
  const textArb = fc.string({ unit: "grapheme", maxLength: 4 });
  fc.assert(
    fc.property(textArb, textArb, (a, b) => {
      assert.equal(compareText(a, b), Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))), `${a} vs ${b}`);
    }),
    { numRuns: 2000 },
  );
});
