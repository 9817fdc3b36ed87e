import { test } from "node:test";
import assert from "node:assert/strict";
import { AnalyticsError } from "../errors.js";
import { LineSplitter } from "./line-splitter.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

// Splits `data` into chunks of `size` bytes and returns every line the splitter emits.
function linesOf(data: Uint8Array, size: number, maxLineBytes = 1 << 20): string[] {
  const out: string[] = [];
  const splitter = new LineSplitter(maxLineBytes);
  for (let i = 0; i < data.length; i += size) splitter.push(data.subarray(i, i + size), (l) => out.push(l));
  splitter.end((l) => out.push(l));
  return out;
}

test("lines cut anywhere by chunks come out whole, at every chunk size", () => {
  const text = '{"a":1}\n{"b":"two"}\n\n{"c":[3]}\n';
  for (let size = 1; size <= text.length; size++) {
    assert.deepEqual(linesOf(bytes(text), size), ['{"a":1}', '{"b":"two"}', "", '{"c":[3]}'], `chunk size ${size}`);
  }
});

test("multi-byte characters cut between chunks survive", () => {
  const text = '{"cwd":"/home/dév/项目/🚀"}\n{"m":"ünï"}';
  for (const size of [1, 2, 3, 5, 7]) {
    assert.deepEqual(linesOf(bytes(text), size), ['{"cwd":"/home/dév/项目/🚀"}', '{"m":"ünï"}'], `chunk size ${size}`);
  }
});

test("CRLF line endings lose their carriage return, even when CR and LF arrive apart", () => {
  const text = "one\r\ntwo\r\nthree";
  for (const size of [1, 2, 4, 100]) assert.deepEqual(linesOf(bytes(text), size), ["one", "two", "three"], `chunk size ${size}`);
});

test("a final line without a line feed is emitted at the end; a trailing line feed adds no line", () => {
  assert.deepEqual(linesOf(bytes("a\nb"), 1), ["a", "b"], "unterminated final line");
  assert.deepEqual(linesOf(bytes("a\nb\n"), 1), ["a", "b"], "terminated final line");
  assert.deepEqual(linesOf(bytes(""), 1), [], "empty stream");
});

test("a line longer than the limit fails with LINE_TOO_LONG naming the line, whether or not it ended", () => {
  const long = `ok\n${"x".repeat(11)}\nrest`;
  for (const size of [1, 3, 64]) {
    assert.throws(() => linesOf(bytes(long), size, 10), (e: unknown) => e instanceof AnalyticsError && e.code === "LINE_TOO_LONG" && e.metadata["line"] === "2", `terminated, chunk size ${size}`);
    assert.throws(() => linesOf(bytes(`ok\n${"x".repeat(11)}`), size, 10), (e: unknown) => e instanceof AnalyticsError && e.code === "LINE_TOO_LONG", `unterminated, chunk size ${size}`);
  }
  assert.deepEqual(linesOf(bytes(`${"x".repeat(10)}\n`), 3, 10), ["x".repeat(10)], "a line exactly at the limit passes");
});

test("the limit counts bytes, not characters", () => {
  assert.throws(() => linesOf(bytes("ééééé é\n"), 4, 12), (e: unknown) => e instanceof AnalyticsError && e.code === "LINE_TOO_LONG", "13 bytes in 7 characters");
});
