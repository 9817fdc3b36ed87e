import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compareUtf8 } from "../bytes.js";
import type { Delta } from "../delta/delta.js";
import { StateEngine } from "../engine/engine.js";
import { isStateError } from "../errors.js";
import type { ExpectedEntry } from "./preconditions.js";
import { similarityEntryKey, type EntryIndex } from "./mod-generations.js";

// A naive model of modification generations: index:key -> generation of the last change.
type Expect = "none" | "current" | "stale";
type Op =
  | { op: "proof"; node: string; expect: Expect }
  | { op: "constraint"; action: "add" | "remove" | "update"; id: string; expect: Expect }
  | { op: "similarity"; a: string; b: string; expect: Expect }
  | { op: "pair"; ops: Op[] };

const NODES = ["a", "b", "c"];
const UNIVERSE: [EntryIndex, string][] = [
  ...NODES.map((n): [EntryIndex, string] => ["proof", n]),
  ["constraint", "c1"],
  ["constraint", "c2"],
  ...NODES.flatMap((a) =>
    NODES.filter((b) => compareUtf8(a, b) < 0).map((b): [EntryIndex, string] => ["similarity", similarityEntryKey(a, b)]),
  ),
];
const expect = fc.constantFrom<Expect>("none", "none", "current", "stale");
const leaf: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("proof" as const), node: fc.constantFrom(...NODES), expect }),
  fc.record({
    op: fc.constant("constraint" as const),
    action: fc.constantFrom("add" as const, "remove" as const, "update" as const),
    id: fc.constantFrom("c1", "c2"),
    expect,
  }),
  fc.record({ op: fc.constant("similarity" as const), a: fc.constantFrom(...NODES), b: fc.constantFrom(...NODES), expect }),
);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: leaf },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("pair" as const), ops: fc.array(leaf, { minLength: 2, maxLength: 2 }) }) },
);

function target(o: Exclude<Op, { op: "pair" }>): [EntryIndex, string] {
  if (o.op === "proof") return ["proof", o.node];
  if (o.op === "constraint") return ["constraint", o.id];
  return ["similarity", similarityEntryKey(o.a, o.b)];
}

function toDelta(o: Op): Delta {
  switch (o.op) {
    case "proof":
      return {
        kind: "proof",
        source: "soft",
        updates: [{ nodeId: o.node, proof: 3n, disproof: 1n, status: "expanded", source: "soft", updatedAt: 1 }],
      };
    case "constraint": {
      const c = { id: o.id, type: "ordering" as const, nodes: ["a"], expression: "", active: true, source: "soft" as const, createdAt: 1 };
      return {
        kind: "constraint",
        source: "soft",
        add: o.action === "add" ? [c] : [],
        remove: o.action === "remove" ? [o.id] : [],
        update: o.action === "update" ? [c] : [],
      };
    }
    case "similarity":
      return { kind: "similarity", source: "soft", updates: [{ a: o.a, b: o.b, distance: 1 }] };
    case "pair":
      return { kind: "composite", deltas: o.ops.map(toDelta) };
  }
}

/** The model's next map, or undefined when the engine must refuse the operation. */
function modelStep(mods: Map<string, number>, o: Op, generation: number): Map<string, number> | undefined {
  const next = new Map(mods);
  const leaves = o.op === "pair" ? o.ops : [o];
  // Preconditions of the top-level operation are checked against the state before it.
  if (o.op !== "pair" && o.expect === "stale") return undefined;
  for (const l of leaves as Exclude<Op, { op: "pair" }>[]) {
    const key = target(l).join(":");
    if (l.op === "constraint") {
      if (l.action === "add" ? next.has(key) : !next.has(key)) return undefined;
      if (l.action === "remove") next.delete(key);
      else next.set(key, generation);
    } else {
      if (l.op === "similarity" && l.a === l.b) return undefined;
      next.set(key, generation);
    }
  }
  return next;
}

describe("modification generations against a simple model", () => {
  it("track the last change of every entry, and expected entries accept current reads and refuse stale ones", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 25 }), (ops) => {
        const e = new StateEngine();
        let mods = new Map<string, number>();
        ops.forEach((o, i) => {
          let expectedEntries: ExpectedEntry[] | undefined;
          if (o.op !== "pair" && o.expect !== "none") {
            const [index, key] = target(o);
            const current = mods.get(`${index}:${key}`) ?? 0;
            expectedEntries = [{ index, key, modGeneration: o.expect === "current" ? current : current + 1 }];
          }
          const expected = modelStep(mods, o, e.generation + 1);
          const before = e.state;
          let threw: unknown;
          try {
            e.apply(toDelta(o), { expectedEntries });
          } catch (err) {
            threw = err;
          }
          assert.equal(threw === undefined, expected !== undefined, `op ${i} ${JSON.stringify(o)}: ${String(threw)}`);
          if (threw !== undefined) {
            assert.ok(isStateError(threw), "a StateError");
            assert.equal(e.state, before, "a refused operation changes nothing");
          } else mods = expected as Map<string, number>;
          // Every key the operations can name, present or not: an absent entry must read 0.
          const s = e.snapshot();
          for (const [index, key] of UNIVERSE) {
            const shown = index === "similarity" ? `[${JSON.stringify(JSON.parse(key)[1])},${JSON.stringify(JSON.parse(key)[0])}]` : key;
            assert.equal(s.modGeneration(index, shown), mods.get(`${index}:${key}`) ?? 0, `after op ${i}: ${index} ${key}`);
          }
        });
      }),
      { numRuns: 80 },
    );
  });
});
