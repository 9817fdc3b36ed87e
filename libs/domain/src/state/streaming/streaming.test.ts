import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isStateError } from "../errors.js";
import { StateEngine } from "../engine/engine.js";
import { countMinAdd, countMinErrorBound, countMinEstimate, emptyCountMin } from "./count-min.js";
import { murmur3 } from "./hash.js";
import { emptyHyperLogLog, hyperLogLogAdd, hyperLogLogEstimate, hyperLogLogStandardError } from "./hyperloglog.js";

// A fixed, deterministic pseudo-random item stream, so runs are reproducible.
function items(n: number, seed: number): string[] {
  const out: string[] = [];
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out.push(`item-${x % 5000}`);
  }
  return out;
}

describe("hash", () => {
  it("is MurmurHash3 x86_32 (known vectors)", () => {
    assert.equal(murmur3("", 0), 0, "empty, seed 0");
    assert.equal(murmur3("", 1), 0x514e28b7, "empty, seed 1");
    assert.equal(murmur3("hello", 0), 0x248bfa47, "hello");
    assert.equal(murmur3("The quick brown fox jumps over the lazy dog", 0), 0x2e4ff723, "fox");
  });
});

describe("Count-Min sketch", () => {
  it("states its bound: epsilon e/width, delta e^-depth", () => {
    const b = countMinErrorBound(emptyCountMin());
    assert.ok(Math.abs(b.epsilon - Math.E / 1024) < 1e-12, "epsilon for width 1024");
    assert.ok(Math.abs(b.delta - Math.exp(-5)) < 1e-12, "delta for depth 5");
  });

  it("never undercounts and stays within e/width * N on (nearly) every item", () => {
    const stream = items(20_000, 7);
    const truth = new Map<string, number>();
    let cm = emptyCountMin(256, 5); // narrow on purpose so collisions happen
    for (const it of stream) {
      truth.set(it, (truth.get(it) ?? 0) + 1);
      cm = countMinAdd(cm, it, 1);
    }
    const { additive, delta } = countMinErrorBound(cm);
    let over = 0;
    for (const [it, n] of truth) {
      const est = countMinEstimate(cm, it);
      assert.ok(est >= n, `${it}: estimate ${est} below truth ${n}`);
      if (est - n > additive) over++;
    }
    // The bound fails with probability delta per item; allow three times that rate.
    assert.ok(over <= Math.ceil(3 * delta * truth.size), `${over} of ${truth.size} items beyond the bound`);
  });
});

describe("HyperLogLog", () => {
  it("estimates distinct counts within three standard errors", () => {
    let hll = emptyHyperLogLog(14);
    const se = hyperLogLogStandardError(hll);
    assert.ok(Math.abs(se - 0.008125) < 1e-6, "1.04/sqrt(16384) = 0.81%");
    const checkpoints = new Map([
      [100, 0],
      [1000, 0],
      [20_000, 0],
    ]);
    for (let i = 1; i <= 20_000; i++) {
      hll = hyperLogLogAdd(hll, `distinct-${i}`);
      if (checkpoints.has(i)) {
        const est = hyperLogLogEstimate(hll);
        assert.ok(Math.abs(est - i) <= Math.max(2, 3 * se * i), `n=${i}: estimate ${est}`);
      }
    }
    assert.equal(hyperLogLogEstimate(hyperLogLogAdd(hll, "distinct-5")), hyperLogLogEstimate(hll), "repeats do not count");
  });
});

describe("streaming index through deltas", () => {
  it("keeps bounded memory and answers estimates and cardinality", () => {
    const e = new StateEngine();
    const before = e.snapshot().streaming.sizeBytes();
    e.apply({
      kind: "streaming",
      source: "soft",
      increments: [
        { item: "a", count: 3 },
        { item: "b", count: 1 },
      ],
      observed: ["c", "a"],
    });
    for (let i = 0; i < 50; i++) e.apply({ kind: "streaming", source: "soft", increments: [{ item: `x${i}`, count: 1 }], observed: [] });
    const s = e.snapshot();
    assert.equal(s.streaming.estimate("a"), 3, "exact while collisions are absent");
    assert.equal(s.streaming.estimate("c"), 1, "an item only observed counts once, as in the reference");
    assert.equal(s.streaming.cardinality(), 53, "a, b, c and 50 more");
    assert.equal(s.streaming.sizeBytes(), before, "memory does not grow with items");
    assert.equal(
      s.streaming.errorBounds().frequencyAdditive,
      (Math.E / 1024) * 55,
      "additive bound uses the total, the observed item included",
    );
  });

  it("gives an item seen only for cardinality an estimate of 1, and leaves a counted item's count alone", () => {
    const e = new StateEngine();
    e.apply({ kind: "streaming", source: "soft", increments: [{ item: "a", count: 4 }], observed: ["a", "o", "o"] });
    e.apply({ kind: "streaming", source: "soft", increments: [], observed: ["o"] });
    const s = e.snapshot().streaming;
    assert.deepEqual([s.estimate("a"), s.estimate("o"), s.cardinality()], [4, 1, 2], "reference counts: a 4, o 1");
  });

  it("refuses increments that would push the total past 2^53-1, so the export stays importable", () => {
    const e = new StateEngine();
    const big = {
      kind: "streaming" as const,
      source: "soft" as const,
      increments: [{ item: "a", count: Number.MAX_SAFE_INTEGER - 1 }],
      observed: [],
    };
    e.apply(big);
    const before = e.state;
    assert.throws(
      () => e.apply({ ...big, increments: [{ item: "b", count: 2 }] }),
      (err: unknown) =>
        isStateError(err, "TOTAL_EXCEEDED") &&
        err.field === "increments[0].count" &&
        err.metadata["limit"] === String(Number.MAX_SAFE_INTEGER),
      "total would lose precision",
    );
    assert.equal(e.state, before, "rejected increment changes nothing");
    e.apply({ ...big, increments: [{ item: "b", count: 1 }] });
    assert.equal(
      StateEngine.fromDocument(e.exportDocument()).exportDocument().streaming.total,
      Number.MAX_SAFE_INTEGER,
      "export at the limit imports",
    );
  });
});
