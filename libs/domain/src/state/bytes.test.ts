import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sortUtf8 } from "./bytes.js";

// The reference order: the strings' UTF-8 bytes.
const byBytes = (values: string[]): string[] => [...values].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

describe("sortUtf8", () => {
  it("orders short and long lists by UTF-8 bytes alike, astral characters after U+E000..U+FFFF", () => {
    const pool = ["b", "a", "", "ab", "a", "\uffff", "\u{1f600}", "\ue000", "é", "z", "\u{10000}", "aa", "A", "\ud7ff", "~"];
    for (let n = 0; n <= pool.length; n++) {
      for (let shift = 0; shift < pool.length; shift++) {
        const list = Array.from({ length: n }, (_, i) => pool[(i * 7 + shift) % pool.length] as string);
        assert.deepEqual(sortUtf8(list), byBytes(list), JSON.stringify(list));
      }
    }
    const long = Array.from({ length: 40 }, (_, i) => pool[(i * 5) % pool.length] as string);
    assert.deepEqual(sortUtf8(long), byBytes(long));
  });

  it("returns a new array and leaves the input as it was", () => {
    const input = ["c", "a", "b"];
    const out = sortUtf8(input);
    assert.deepEqual(out, ["a", "b", "c"]);
    assert.deepEqual(input, ["c", "a", "b"]);
    assert.notEqual(out, input);
    assert.deepEqual(sortUtf8(new Set(["y", "x"])), ["x", "y"], "any iterable");
  });
});
