import { test } from "node:test";
import assert from "node:assert/strict";
import { RolloutReader } from "./rollout-reader.js";

const enc = new TextEncoder();

// Reads `data` in chunks of `size` bytes and returns the decoded rollout.
function read(data: Uint8Array, size: number): ReturnType<RolloutReader["end"]> {
  const reader = new RolloutReader();
  for (let i = 0; i < data.length; i += size) reader.push(data.subarray(i, i + size));
  return reader.end();
}

test("a byte order mark or invalid UTF-8 inside a chunk decodes as it does on a line read alone", () => {
  const call = (id: string, name: string): string =>
    `{"timestamp":"2026-03-01T00:00:01.000Z","type":"response_item","payload":{"type":"function_call","call_id":"${id}","name":"${name}","arguments":"{}"}}`;
  const parts: Uint8Array[] = [
    enc.encode(`${call("a", "shell")}\n\uFEFF${call("b", "bom")}\n`),
    // A tool name with a stray continuation byte, a truncated sequence and a surrogate's encoding.
    enc.encode(call("c", "x\u0001y").replace("\u0001", "\uFFFF")),
    enc.encode("\n"),
    // A line of one truncated character: not JSON.
    Uint8Array.from([0xe2, 0x82, 0x0a]),
    enc.encode(`\uFEFF \r\n${call("d", "d")}\r\n{"torn":`),
  ];
  const data = Buffer.concat(parts);
  // Patch raw invalid bytes into the tool name "x?y" where U+FFFF was written (3 bytes: ef bf bf).
  const at = data.indexOf(Buffer.from([0xef, 0xbf, 0xbf]));
  data.set([0x80, 0xc3, 0xed], at);
  // One-byte chunks hand every line over alone; a chunk holding everything hands them as one run.
  const alone = read(data, 1);
  const run = read(data, data.length);
  assert.deepEqual(run, alone);
  assert.equal(alone.records.length, 4, "every call decoded, the byte order mark and invalid bytes included");
  assert.deepEqual([alone.skipped["blank"], alone.skipped["not_json"], alone.tornTail], [1, 2, true]);
});
