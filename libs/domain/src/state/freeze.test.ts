import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { frozenCopy } from "./freeze.js";

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
