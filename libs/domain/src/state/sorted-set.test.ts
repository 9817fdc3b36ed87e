import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { emptySortedSet, sortedAdd, sortedFirst, sortedRemove, sortedSetOf, sortedValues, type SortedSet } from "./sorted-set.js";

const byNumber = (a: number, b: number): number => a - b;

type Tree = SortedSet<number>["root"];

/** The height of `n`, checking on the way that every node's height is right and its children's differ by at most one. */
function checkedHeight(n: Tree): number {
  if (n === undefined) return 0;
  const l = checkedHeight(n.left);
  const r = checkedHeight(n.right);
  assert.ok(Math.abs(l - r) <= 1, `node ${n.value} is balanced (${l} vs ${r})`);
  assert.equal(n.height, Math.max(l, r) + 1, `node ${n.value} knows its height`);
  assert.ok(Object.isFrozen(n), "nodes are frozen");
  return n.height;
}

function assertHolds(set: SortedSet<number>, model: readonly number[], ctx: string): void {
  assert.deepEqual([...sortedValues(set)], model, `${ctx}: elements in order`);
  assert.equal(set.size, model.length, `${ctx}: size`);
  assert.equal(sortedFirst(set), model[0], `${ctx}: first`);
  checkedHeight(set.root);
}

const opArb = fc.record({ add: fc.boolean(), value: fc.integer({ min: -20, max: 40 }) });

describe("persistent sorted set against a sorted array", () => {
  it("holds what a sorted array holds after any adds and removes, and stays balanced", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 150 }), (ops) => {
        let set = emptySortedSet(byNumber);
        let model: number[] = [];
        for (const o of ops) {
          set = o.add ? sortedAdd(set, o.value) : sortedRemove(set, o.value);
          model = o.add ? [...new Set([...model, o.value])].sort(byNumber) : model.filter((v) => v !== o.value);
          assertHolds(set, model, `${o.add ? "add" : "remove"} ${o.value}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("leaves every earlier version unchanged by later adds and removes", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
        const versions: [SortedSet<number>, number[]][] = [];
        let set = emptySortedSet(byNumber);
        for (const o of ops) {
          set = o.add ? sortedAdd(set, o.value) : sortedRemove(set, o.value);
          versions.push([set, [...sortedValues(set)]]);
        }
        for (const [v, held] of versions) assert.deepEqual([...sortedValues(v)], held, "a kept version is unchanged");
      }),
      { numRuns: 200 },
    );
  });

  it("keeps the same set when removing an absent element, and replaces an equal element on add", () => {
    const set = sortedSetOf([1, 3, 5], byNumber);
    assert.equal(sortedRemove(set, 4), set, "nothing to remove: the same set");
    const byKey = (a: { k: number }, b: { k: number }): number => a.k - b.k;
    const objects = sortedAdd(sortedSetOf([{ k: 1, tag: "old" }], byKey), { k: 1, tag: "new" });
    assert.deepEqual([...sortedValues(objects)], [{ k: 1, tag: "new" }], "equal element replaced, size kept");
    assert.equal(objects.size, 1);
  });

  it("builds a balanced set from a sorted array of any length", () => {
    for (let n = 0; n < 70; n++) {
      const values = Array.from({ length: n }, (_, i) => i * 2);
      assertHolds(sortedSetOf(values, byNumber), values, `${n} values`);
    }
  });
});
