import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeEnvelope, firstLine } from "./envelope.js";
import { classifyOutcome } from "./outcome.js";
import { unifiedOutput } from "./testing/lines.js";

test("empty output is opaque", () => {
  assert.equal(decodeEnvelope("  \n ").kind, "opaque", "blank");
});

test("structured envelope reads metadata.exit_code and duration_seconds", () => {
  const e = decodeEnvelope(JSON.stringify({ output: "hi", metadata: { exit_code: 2.9, duration_seconds: 1.5 } }));
  assert.deepEqual(
    e,
    { kind: "structured", hasExit: true, exitCode: 2, wallS: 1.5, timedOut: false, running: false },
    "fraction truncated",
  );
  const s = decodeEnvelope(JSON.stringify({ output: "hi", metadata: { exit_code: "1" } }));
  assert.equal(s.hasExit, false, "string exit code ignored");
  assert.equal(decodeEnvelope("{not json").kind, "malformed", "broken object is malformed");
  assert.equal(decodeEnvelope('{"a":1').kind, "malformed", "unterminated object");
});

test("structured timeout comes from the first output line or exit 124/143", () => {
  const first = decodeEnvelope(
    JSON.stringify({ output: "\n  command timed out after 10000 milliseconds\nrest", metadata: { exit_code: 0 } }),
  );
  assert.equal(first.timedOut, true, "first line marker");
  const later = decodeEnvelope(JSON.stringify({ output: "fine\ntimed out after 5s", metadata: { exit_code: 0 } }));
  assert.equal(later.timedOut, false, "a marker further down cannot fake a timeout");
  assert.equal(decodeEnvelope(JSON.stringify({ output: "", metadata: { exit_code: 124 } })).timedOut, true, "124");
  assert.equal(decodeEnvelope(JSON.stringify({ output: "", metadata: { exit_code: 143 } })).timedOut, true, "143");
});

test("text envelope reads Exit code, the first Wall time and the Output body", () => {
  const e = decodeEnvelope("Exit code: 1\nWall time: 2.5 seconds\nOutput:\nTimed out after 30s\n");
  assert.deepEqual(e, { kind: "text", hasExit: true, exitCode: 1, wallS: 2.5, timedOut: true, running: false }, "text fields");
  assert.equal(decodeEnvelope("Exit code: -1\nOutput:\nx").exitCode, -1, "negative exit");
  assert.equal(decodeEnvelope("Exit code: abc").kind, "malformed", "bad header");
  assert.equal(decodeEnvelope("Exit code: 0\nOutput:\nok").wallS, 0, "absent wall time is zero");
});

test("a Unicode space after an Exit code or Wall time header does not read as the header's whitespace", () => {
  // The reference's whitespace is tab, line feed, form feed, carriage return and space only.
  assert.equal(decodeEnvelope("Exit code:\u00a05\nOutput:\nx").kind, "malformed", "no-break space before the code");
  assert.equal(decodeEnvelope("Exit code: 5\nWall time:\u20031.5 seconds\n").wallS, 0, "em space before the wall time");
  assert.equal(decodeEnvelope("Exit code:\t5\nWall time:\t1.5 seconds\n").wallS, 1.5, "a tab is whitespace");
});

test("an exit code too large for a 64-bit integer is still a non-zero exit, not read as 0", () => {
  const e = decodeEnvelope("Exit code: 99999999999999999999\nOutput:\nboom");
  assert.equal(e.hasExit, true);
  assert.ok(e.exitCode > 0, `non-zero: ${e.exitCode}`);
  assert.equal(classifyOutcome("", e).cls, "failure", "a failed call, not a success");
});

test("unified-exec output is decoded, not opaque", () => {
  const e = decodeEnvelope(unifiedOutput(2, "boom", 1.25));
  assert.deepEqual(e, { kind: "unified_exec", hasExit: true, exitCode: 2, wallS: 1.25, timedOut: false, running: false }, "exit 2");
  const running = decodeEnvelope("Chunk ID: 1\nWall time: 10.0000 seconds\nProcess running with session ID 7\nOutput:\npartial");
  assert.equal(running.running, true, "still running");
  assert.equal(running.hasExit, false, "no exit while running");
  const timeout = decodeEnvelope(unifiedOutput(0, "command timed out after 60000 milliseconds"));
  assert.equal(timeout.timedOut, true, "timeout marker in the output body");
  const fake = decodeEnvelope("Wall time: 1 seconds\nOutput:\nProcess exited with code 3");
  assert.equal(fake.kind, "opaque", "an exit line inside the output body is not a header");
});

test("plain text and JSON arrays stay opaque", () => {
  assert.equal(decodeEnvelope("Plan updated").kind, "opaque", "text");
  assert.equal(decodeEnvelope('[{"type":"input_image"}]').kind, "opaque", "array");
});

test("firstLine skips leading blank characters and trims", () => {
  assert.equal(firstLine("\r\n \tabc  \ndef"), "abc", "first line");
});

test("the body starts after the first Output: that ends its line, whichever line ending it has", () => {
  const timedOut = (s: string): boolean => decodeEnvelope(s).timedOut;
  // An `Output:` that does not end its line is not the marker; the later CRLF one is.
  assert.equal(timedOut("Exit code: 1\nOutput: none\r\nOutput:\r\ntimed out after 5s\nOutput:\nok"), true, "CRLF first");
  assert.equal(timedOut("Exit code: 1\nOutput:\nok\nOutput:\r\ntimed out after 5s"), false, "LF first");
  assert.equal(timedOut("Exit code: 1\nOutput:\rtimed out after 5s"), false, "a bare CR ends no line");
  assert.equal(timedOut("Exit code: 1\nWall time: 1 seconds\nOutput:"), false, "a marker at the very end has no body");
  const unified = decodeEnvelope("Wall time: 2 seconds\r\nProcess exited with code 3\r\nOutput:\r\ntimed out after 2s");
  assert.deepEqual([unified.kind, unified.exitCode, unified.wallS, unified.timedOut], ["unified_exec", 3, 2, true], "unified, CRLF");
  assert.equal(decodeEnvelope("Plan updated\nProcess exited with code 3").kind, "opaque", "no unified header at the start");
});
