import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { allCells, cellKey, cellsOf } from "./post-tool-cells.js";
import { percentiles } from "./percentiles.js";

const ascending = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);

describe("post-tool cells", () => {
  it("reads every rank and count of the sorted union of its runs, duplicates and empty runs included, without building it", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 40 }), { maxLength: 8 }),
        fc.integer({ min: -1, max: 51 }),
        (parts, limit) => {
          const runs = parts.map(ascending);
          const cells = Object.fromEntries(runs.map((r, i) => [`cell${i} x`, r]));
          const union = ascending(runs.flat());
          const view = allCells(cells);
          assert.equal(view.length, union.length, "length");
          for (let i = -1; i <= union.length; i++) assert.equal(view.at(i), union[i], `rank ${i}`);
          assert.equal(view.over(limit), union.filter((v) => v > limit).length, "count over the limit");
          assert.deepEqual(percentiles(view), percentiles(union), "percentiles");
        },
      ),
    );
  });

  it("gathers a band's cells across buckets and a bucket's cells across bands", () => {
    const cells = {
      [cellKey("lt10k", "1_20")]: [1, 5],
      [cellKey("lt10k", "21_50")]: [3],
      [cellKey("gte100k", "1_20")]: [2, 9],
    };
    const band = cellsOf(cells, 0, "lt10k");
    assert.deepEqual([band.length, band.at(0), band.at(1), band.at(2)], [3, 1, 3, 5], "lt10k over both buckets");
    const bucket = cellsOf(cells, 1, "1_20");
    assert.deepEqual([bucket.length, bucket.at(0), bucket.at(3)], [4, 1, 9], "1_20 over both bands");
    assert.equal(cellsOf(cells, 0, "unobserved").length, 0, "a band without spans is empty");
  });
});
