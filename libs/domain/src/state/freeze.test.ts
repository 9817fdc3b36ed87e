import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frozenCopy, frozenWith } from "./freeze.js";

describe("frozen copies of loaded data", () => {
  it("copy plain data deeply and freeze every level, leaving the source editable and unshared", () => {
    const source = { a: [1, { b: "x", c: [true, null] }], d: { e: 2n }, f: undefined };
    const copy = frozenCopy(source);
    assert.deepEqual(copy, source, "equal");
    for (const part of [copy, copy.a, copy.a[1], (copy.a[1] as { c: unknown[] }).c, copy.d])
      assert.ok(Object.isFrozen(part), "every level frozen");
    assert.ok(!Object.isFrozen(source) && !Object.isFrozen(source.a), "the source is left alone");
    source.d.e = 3n;
    assert.equal(copy.d.e, 2n, "no level shared with the source");
  });

  it("keep an own __proto__ key a plain field, as a structured clone does", () => {
    const source = JSON.parse('{"__proto__": {"polluted": true}, "k": 1}') as Record<string, unknown>;
    const copy = frozenCopy(source);
    assert.equal(Object.getPrototypeOf(copy), Object.prototype, "prototype untouched");
    assert.deepEqual(Object.keys(copy), ["__proto__", "k"], "own key kept");
    assert.equal(({} as { polluted?: boolean }).polluted, undefined, "nothing polluted");
  });

  it("reject what a structured clone rejects and clone what it clones", () => {
    assert.throws(
      () => frozenCopy({ a: [() => 1] }),
      (err: unknown) => err instanceof Error && err.name === "DataCloneError",
      "functions",
    );
    const at = new Date(5);
    const copy = frozenCopy({ at });
    assert.ok(copy.at instanceof Date && copy.at !== at && copy.at.getTime() === 5, "a date is cloned");
  });
});

describe("frozen records with changes", () => {
  it("equal a frozen spread of the source and the changes, key order and own __proto__ key included", () => {
    const tag = Symbol("tag");
    const source = JSON.parse('{"a": 1, "__proto__": {"x": 1}, "b": 2}') as Record<string | symbol, unknown>;
    source[tag] = "kept";
    const made = frozenWith<Record<string | symbol, unknown>>(source, { b: 3, c: undefined });
    const spread = Object.freeze({ ...source, b: 3, c: undefined });
    assert.deepEqual(Reflect.ownKeys(made), Reflect.ownKeys(spread), "same keys in the same order");
    assert.equal(Object.getPrototypeOf(made), Object.prototype, "prototype untouched");
    assert.ok(Object.isFrozen(made), "frozen");
    source.a = 9;
    assert.equal(made.a, 1, "a copy, not the source");
    assert.deepEqual(made, { ...spread, a: 1 }, "same fields and values");
  });
});
