import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyOutcome } from "./outcome.js";
import { decodeEnvelope, type Envelope } from "./envelope.js";
import { countsAsFailure, TOOL_CLASSES } from "./vocabulary.js";

function exit(code: number): Envelope {
  return decodeEnvelope(`Exit code: ${code}\nWall time: 0.1 seconds\nOutput:\n`);
}

test("classification follows the fixed order with its reason tokens", () => {
  assert.deepEqual(
    classifyOutcome("ls", decodeEnvelope("{bad")),
    { cls: "malformed_envelope", reason: "undecodable_envelope", confidence: "observed" },
    "malformed",
  );
  assert.deepEqual(
    classifyOutcome("ls", decodeEnvelope("whatever")),
    { cls: "ok", reason: "no_envelope", confidence: "assumed" },
    "opaque",
  );
  assert.deepEqual(
    classifyOutcome("ls", decodeEnvelope(JSON.stringify({ output: "timed out after 3s", metadata: { exit_code: 0 } }))),
    { cls: "timeout", reason: "timeout", confidence: "observed" },
    "timeout before exit 0",
  );
  assert.deepEqual(
    classifyOutcome("ls", decodeEnvelope('{"output":"x"}')),
    { cls: "ok", reason: "structured_no_exit", confidence: "assumed" },
    "no exit",
  );
  assert.deepEqual(classifyOutcome("ls", exit(0)), { cls: "ok", reason: "exit_0", confidence: "observed" }, "exit 0");
  assert.deepEqual(classifyOutcome("make", exit(2)), { cls: "failure", reason: "exit_2", confidence: "observed" }, "failure");
  assert.deepEqual(classifyOutcome("make", exit(-1)), { cls: "failure", reason: "exit_-1", confidence: "observed" }, "negative exit");
  assert.deepEqual(
    classifyOutcome("sleep 1", decodeEnvelope("Wall time: 1 seconds\nProcess running with session ID 3\nOutput:\n")),
    { cls: "ok", reason: "process_running", confidence: "assumed" },
    "running process",
  );
});

test("merge_head_probe matches git rev-parse MERGE_HEAD within one segment, any non-zero exit", () => {
  assert.equal(classifyOutcome("git rev-parse -q --verify MERGE_HEAD", exit(1)).reason, "merge_head_probe", "exit 1");
  assert.equal(classifyOutcome("cd x && GIT rev-parse merge_head", exit(128)).reason, "merge_head_probe", "case-insensitive, exit 128");
  assert.equal(classifyOutcome("git rev-parse HEAD | grep MERGE_HEAD", exit(2)).cls, "failure", "pipe separates the words");
  assert.equal(
    classifyOutcome("git -C repo \\\n  rev-parse -q --verify MERGE_HEAD", exit(1)).reason,
    "merge_head_probe",
    "a command continued on the next line is one segment",
  );
});

test("grep_no_match covers exit 1 at a segment start only", () => {
  for (const head of [
    "rg foo",
    "grep -n x f",
    "egrep a b",
    "fgrep a b",
    "git grep x",
    "cd d && rg x",
    "a || grep x",
    "a; grep x",
    "echo\ngrep x f",
  ]) {
    assert.deepEqual(classifyOutcome(head, exit(1)), { cls: "expected_negative", reason: "grep_no_match", confidence: "observed" }, head);
  }
  assert.equal(classifyOutcome("rg foo", exit(2)).cls, "failure", "exit 2 is a real grep error");
  assert.equal(classifyOutcome("rg", exit(1)).cls, "failure", "bare rg");
  assert.equal(classifyOutcome("cat f | grep x", exit(1)).cls, "failure", "after a single pipe");
  assert.equal(classifyOutcome("sudo grep x f", exit(1)).cls, "failure", "prefix defeats it");
  assert.equal(classifyOutcome("a & grep x", exit(1)).cls, "failure", "after a single ampersand");
});

test("wait_control_exit matches the wait builtin only", () => {
  assert.deepEqual(
    classifyOutcome("wait 123", exit(1)),
    { cls: "control_exit", reason: "wait_control_exit", confidence: "observed" },
    "wait pid",
  );
  assert.equal(classifyOutcome("x && wait", exit(127)).reason, "wait_control_exit", "wait at end");
  assert.equal(classifyOutcome("wait;", exit(1)).reason, "wait_control_exit", "wait then semicolon");
  for (const head of ["Wait-Process 1", "waiting 3", "tool --max-wait-s 3", "run -probe-wait"]) {
    assert.equal(classifyOutcome(head, exit(1)).cls, "failure", head);
  }
  assert.equal(classifyOutcome("wait; grep x f", exit(1)).reason, "grep_no_match", "expected negatives are checked first");
});

test("wait followed by a no-break space is no wait builtin, as the reference's whitespace is ASCII", () => {
  assert.equal(classifyOutcome("wait\u00a0%1", exit(1)).cls, "failure", "no-break space");
  assert.equal(classifyOutcome("wait\t%1", exit(1)).reason, "wait_control_exit", "tab");
});

test("only failure and timeout count as failures", () => {
  assert.deepEqual(TOOL_CLASSES.filter(countsAsFailure), ["failure", "timeout"], "failure classes");
  assert.equal(TOOL_CLASSES.length, 9, "closed vocabulary of nine");
});
