import { test } from "node:test";
import assert from "node:assert/strict";
import { HEAD_BYTES, LineSplitter } from "./line-splitter.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

// Splits `data` into chunks of `size` bytes (reusing one chunk buffer, as the file reader does)
// and hands them to a splitter with `sink`.
function feed(data: Uint8Array, size: number, maxLineBytes: number, sink: Parameters<LineSplitter["push"]>[1]): void {
  const splitter = new LineSplitter(maxLineBytes);
  // A Buffer, as file reads deliver: its slice() shares memory, so kept pieces must be copied.
  const chunk = Buffer.alloc(size);
  for (let i = 0; i < data.length; i += size) {
    const piece = data.subarray(i, i + size);
    chunk.set(piece);
    splitter.push(chunk.subarray(0, piece.length), sink);
    chunk.fill(0x21);
  }
  splitter.end(sink);
}

// Every line and oversized head the splitter emits.
function linesOf(data: Uint8Array, size: number, maxLineBytes = 1 << 20): string[] {
  const out: string[] = [];
  feed(data, size, maxLineBytes, {
    line: (l: Uint8Array) => out.push(text(l).replace(/\r$/, "")),
    oversized: (h: Uint8Array, n: number) => out.push(`<${n}:${text(h)}>`),
  });
  return out;
}

test("lines cut anywhere by chunks come out whole, at every chunk size, though the chunk buffer is reused", () => {
  const t = '{"a":1}\n{"b":"two"}\n\n{"c":[3]}\n';
  for (let size = 1; size <= t.length; size++) {
    assert.deepEqual(linesOf(bytes(t), size), ['{"a":1}', '{"b":"two"}', "", '{"c":[3]}'], `chunk size ${size}`);
  }
});

test("multi-byte characters cut between chunks survive", () => {
  const t = '{"cwd":"/home/dév/项目/🚀"}\n{"m":"ünï"}';
  for (const size of [1, 2, 3, 5, 7]) {
    assert.deepEqual(linesOf(bytes(t), size), ['{"cwd":"/home/dév/项目/🚀"}', '{"m":"ünï"}'], `chunk size ${size}`);
  }
});

test("a final line without a line feed is emitted at the end; a trailing line feed adds no line", () => {
  assert.deepEqual(linesOf(bytes("a\nb"), 1), ["a", "b"], "unterminated final line");
  assert.deepEqual(linesOf(bytes("a\nb\n"), 1), ["a", "b"], "terminated final line");
  assert.deepEqual(linesOf(bytes(""), 1), [], "empty stream");
});

test("a line over the limit is passed as its length and head, and the lines around it are intact", () => {
  for (const size of [1, 3, 64]) {
    assert.deepEqual(
      linesOf(bytes(`ok\n${"x".repeat(11)}\nrest`), size, 10),
      ["ok", `<11:${"x".repeat(11)}>`, "rest"],
      `terminated, chunk size ${size}`,
    );
    assert.deepEqual(
      linesOf(bytes(`ok\n${"x".repeat(11)}`), size, 10),
      ["ok", `<11:${"x".repeat(11)}>`],
      `unterminated, chunk size ${size}`,
    );
  }
  assert.deepEqual(linesOf(bytes(`${"x".repeat(10)}\n`), 3, 10), ["x".repeat(10)], "a line exactly at the limit passes whole");
});

test("the limit counts bytes, not characters", () => {
  assert.deepEqual(linesOf(bytes("ééééé é\n"), 4, 12), ["<13:ééééé é>"], "13 bytes in 7 characters");
});

test("only the head of a huge line is kept, however it is chunked", () => {
  const huge = `{"type":"compacted"${" ".repeat(HEAD_BYTES * 3)}}`;
  for (const size of [1000, 65536]) {
    const [out] = linesOf(bytes(`${huge}\n`), size, 100);
    assert.equal(out, `<${huge.length}:${huge.slice(0, HEAD_BYTES)}>`, `chunk size ${size}`);
  }
});

// The lines a sink that takes runs sees: each run cut at its line feeds.
function runLinesOf(data: Uint8Array, size: number, maxLineBytes: number): string[] {
  const out: string[] = [];
  feed(data, size, maxLineBytes, {
    line: (l: Uint8Array) => out.push(text(l)),
    oversized: (h: Uint8Array, n: number) => out.push(`<${n}:${text(h)}>`),
    lines: (run: Uint8Array) => out.push(...text(run).split("\n")),
  });
  return out;
}

test("a sink taking whole runs of lines sees the same lines as one taking them one by one, at every chunk size and limit", () => {
  const t = `{"a":1}\n\n${"y".repeat(9)}\nü€\n${"x".repeat(12)}\n{"b":"two"}\nlast`;
  const data = bytes(t);
  for (const max of [4, 10, 12, 1 << 20]) {
    for (let size = 1; size <= data.length; size++) {
      assert.deepEqual(runLinesOf(data, size, max), linesOf(data, size, max), `chunk size ${size}, limit ${max}`);
    }
  }
});
