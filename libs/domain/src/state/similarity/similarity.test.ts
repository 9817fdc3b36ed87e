import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isStateError } from "../errors.js";
import { StateEngine } from "../engine/engine.js";

describe("similarity", () => {
  it("stores one canonical pair readable in both orders", () => {
    const e = new StateEngine();
    e.recordSimilarity({ a: "b", b: "a", distance: 2.5 });
    const s = e.snapshot();
    assert.equal(s.similarity.distance("a", "b"), 2.5, "forward");
    assert.equal(s.similarity.distance("b", "a"), 2.5, "reverse");
    assert.equal(s.similarity.size(), 1, "one pair");
    assert.deepEqual(s.similarity.allPairs().pairs, [{ from: "a", to: "b", distance: 2.5 }], "canonical order, distance above 1 kept");
  });

  it("rejects empty keys, self pairs, negative, NaN and infinite distances", () => {
    const e = new StateEngine();
    const bad: [string, string, number, string][] = [
      ["", "b", 1, "must not be empty"],
      ["a", "a", 1, "self-similarity"],
      ["a", "b", -0.1, "similarity distance must be non-negative: a-b"],
      ["a", "b", Number.NaN, "finite"],
      ["a", "b", Number.POSITIVE_INFINITY, "finite"],
    ];
    for (const [a, b, d, text] of bad) {
      assert.throws(
        () => e.recordSimilarity({ a: a, b: b, distance: d }),
        (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.message.includes(text),
        `rejects ${a}-${b}:${d}`,
      );
    }
    assert.equal(e.generation, 0, "nothing changed");
  });

  it("at the cap still updates existing pairs (even a zero distance) but refuses new ones", () => {
    const e = new StateEngine({ config: { maxSimilarityPairs: 2 } });
    e.recordSimilarity({ a: "a", b: "b", distance: 0 });
    e.recordSimilarity({ a: "a", b: "c", distance: 1 });
    e.recordSimilarity({ a: "b", b: "a", distance: 0.25 });
    assert.equal(e.snapshot().similarity.distance("a", "b"), 0.25, "update of a zero-distance pair at the cap");
    assert.throws(
      () => e.recordSimilarity({ a: "c", b: "d", distance: 1 }),
      (err: unknown) => isStateError(err, "CAPACITY_EXCEEDED"),
      "new pair refused loudly",
    );
    assert.throws(
      () =>
        e.apply({
          kind: "similarity",
          source: "soft",
          updates: [
            { a: "a", b: "b", distance: 3 },
            { a: "x", b: "y", distance: 1 },
          ],
        }),
      (err: unknown) => isStateError(err, "CAPACITY_EXCEEDED") && err.field === "updates[1]",
      "delta naming the offending entry",
    );
    assert.equal(e.snapshot().similarity.distance("a", "b"), 0.25, "rejected delta left the first update unapplied");
  });

  it("returns nearest neighbours by distance then id, from both ends of each pair", () => {
    const e = new StateEngine();
    e.recordSimilarity({ a: "n", b: "z", distance: 1 });
    e.recordSimilarity({ a: "a", b: "n", distance: 1 });
    e.recordSimilarity({ a: "n", b: "m", distance: 0.5 });
    e.recordSimilarity({ a: "x", b: "y", distance: 0.1 });
    const s = e.snapshot();
    assert.deepEqual(
      s.similarity.nearestNeighbors("n", 3).map((x) => x.id),
      ["m", "a", "z"],
      "ties by id",
    );
    assert.deepEqual(s.similarity.nearestNeighbors("n", 0), [], "k <= 0");
    const page = s.similarity.allPairs(2);
    assert.deepEqual([page.pairs.length, page.truncated], [2, true], "capped listing is flagged");
  });
});
