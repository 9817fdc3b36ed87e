import assert from "node:assert/strict";
import { test } from "node:test";
import { HEAD_BYTES, LineSplitter } from "../reader/index.js";
import { type KeepLine, LineFilter } from "./line-filter.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

// Feeds `data` in chunks of `size` through one reused chunk buffer, as the file reader does.
function feed(data: Uint8Array, size: number, push: (chunk: Buffer) => void): void {
  const chunk = Buffer.alloc(size);
  for (let i = 0; i < data.length; i += size) {
    const piece = data.subarray(i, i + size);
    chunk.set(piece);
    push(chunk.subarray(0, piece.length));
    chunk.fill(0x21);
  }
}

function filtered(data: Uint8Array, size: number, maxLineBytes: number, keep: KeepLine): string[] {
  const out: string[] = [];
  const filter = new LineFilter(maxLineBytes, keep, {
    line: (l, start, end) => out.push(text(l.subarray(start, end))),
    oversized: (h) => out.push(`<${text(h)}>`),
  });
  feed(data, size, (c) => filter.push(c));
  filter.end();
  return out;
}

function split(data: Uint8Array, size: number, maxLineBytes: number): string[] {
  const out: string[] = [];
  const splitter = new LineSplitter(maxLineBytes);
  const sink = { line: (l: Uint8Array) => out.push(text(l)), oversized: (h: Uint8Array) => out.push(`<${text(h)}>`) };
  feed(data, size, (c) => splitter.push(c, sink));
  splitter.end(sink);
  return out;
}

const SAMPLE = [
  '{"a":1}',
  "",
  `{"keep":"${"k".repeat(300)}"}`,
  `{"skip":"${"s".repeat(400)}"}`,
  "x".repeat(HEAD_BYTES + 50),
  '{"cwd":"/home/dév/项目/🚀"}\r',
  '{"keep":"last, unterminated"}',
].join("\n");

test("kept lines come out as the scan's reader cuts them, however chunks split them and whatever the limit", () => {
  const data = bytes(SAMPLE);
  for (const max of [1 << 20, 200, 10]) {
    const want = split(data, data.length, max);
    for (const size of [1, 2, 7, 64, 159, 160, 161, 1000, data.length]) {
      assert.deepEqual(
        filtered(data, size, max, () => true),
        want,
        `chunk size ${size}, limit ${max}`,
      );
    }
  }
});

test("lines judged by their head are dropped whole, and only those the judge keeps reach the sink", () => {
  const data = bytes(SAMPLE);
  const keep: KeepLine = (b, start, end) => text(b.subarray(start, end)).startsWith('{"keep"');
  const want = split(data, data.length, 1 << 20).filter((l) => l.startsWith('{"keep"'));
  for (const size of [1, 3, 100, 4096]) {
    assert.deepEqual(filtered(data, size, 1 << 20, keep), want, `chunk size ${size}`);
  }
  assert.deepEqual(
    filtered(data, 5, 1 << 20, () => false),
    [],
    "nothing kept",
  );
});

test("the judge sees a line's first 160 bytes, or the whole of a shorter line, wherever the chunks cut", () => {
  const long = `${"h".repeat(200)}\nshort\n`;
  for (const size of [1, 50, 159, 300]) {
    const heads: string[] = [];
    filtered(bytes(long), size, 1 << 20, (b, start, end) => heads.push(text(b.subarray(start, end))) < 0);
    assert.deepEqual(heads, ["h".repeat(160), "short"], `chunk size ${size}`);
  }
});
