import { test } from "node:test";
import assert from "node:assert/strict";
import type { CallRow } from "../analytics/calls.js";
import { signatureOf } from "../signature.js";
import type { ToolClass } from "../vocabulary.js";
import { detectBehavior } from "./behavior.js";

function calls(n: number, head: string, cls: ToolClass, targets: string[] = [], tool = "exec_command"): CallRow[] {
  return Array.from({ length: n }, (_, i) => ({
    index: i,
    task: 0,
    callId: `c${i}`,
    tool,
    head,
    targets,
    waits: false,
    sleepPoll: false,
    outputIndex: null,
    cls,
    reason: "",
    confidence: "observed",
    spanMs: 0,
    sig: signatureOf(tool, head),
  }));
}

test("detector thresholds: repeat failures at 3, success loops at 8, edit churn at 5", () => {
  const below = detectBehavior(
    [...calls(2, "make", "failure"), ...calls(7, "ls", "ok"), ...calls(4, "p", "ok", ["f.ts"], "apply_patch")],
    [],
  );
  assert.deepEqual([below.repeatFailures.length, below.successLoops.length, below.editChurn.length], [0, 0, 0], "below thresholds");
  assert.deepEqual([below.maxRepeatFailure, below.maxSuccessLoop, below.maxEditChurn], [2, 7, 4], "maxima reported regardless");
  const at = detectBehavior(
    [...calls(3, "make", "timeout"), ...calls(8, "ls", "ok"), ...calls(5, "q", "expected_negative", ["f.ts"], "apply_patch")],
    [],
  );
  assert.deepEqual(
    [at.repeatFailures.length, at.successLoops.length, at.editChurn.length],
    [1, 1, 1],
    "at thresholds (timeouts count as failures)",
  );
  assert.equal(at.timeoutKills, 3, "timeout kills");
});

test("detector rows rank by count, then signature or file", () => {
  const b = detectBehavior(
    [
      ...calls(3, "a", "failure"),
      ...calls(3, "b", "failure"),
      ...calls(4, "c", "failure"),
      ...calls(5, "p", "ok", ["z.ts", "a.ts"], "apply_patch"),
    ],
    [],
  );
  const sigs = b.repeatFailures.map((r) => r.sig);
  assert.equal(b.repeatFailures[0]?.count, 4, "largest first");
  assert.deepEqual(sigs.slice(1), [...sigs.slice(1)].sort(), "equal counts by signature");
  assert.deepEqual(
    b.editChurn.map((r) => r.file),
    ["a.ts", "z.ts"],
    "equal churn by file",
  );
  assert.ok(
    ["missing_result", "interrupted", "control_exit"].every((c) => detectBehavior(calls(9, "x", c as ToolClass), []).maxSuccessLoop === 0),
    "other classes tally nowhere",
  );
});
