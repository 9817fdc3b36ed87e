import { test } from "node:test";
import assert from "node:assert/strict";
import { fold } from "./fold.js";
import { foldEventsOf } from "./events.js";
import type { FoldEvent, FoldEventKind } from "./types.js";
import { collectRollout } from "../decode/collect.js";
import { decodeLine } from "../decode/decode-line.js";
import { affectsTurnStatus, classifyTurnError } from "../turn-error.js";
import { errorLine, metaLine, startLine } from "../testing/lines.js";

function ev(kind: FoldEventKind, turnId: string, t: number, extra: Partial<FoldEvent> = {}): FoldEvent {
  return { kind, turnId, timestamp: `T${t}`, tsMs: t * 1000, reason: "", durationMs: null, ...extra };
}

test("an error event keeps only its class and whether it ends the turn, never its message", () => {
  const d = decodeLine(errorLine(1, { http_connection_failed: { http_status_code: 502 } }, "upstream said: private text"));
  assert.ok(d.ok && d.record.kind === "turn_error", "decoded");
  if (!d.ok || d.record.kind !== "turn_error") return;
  assert.deepEqual([d.record.errorClass, d.record.affectsTurn], ["http_connection_failed", true], "variant with data");
  assert.ok(!JSON.stringify(d.record).includes("private"), "message dropped");
  const census = collectRollout([metaLine("r"), errorLine(1, "usage_limit_exceeded")]);
  assert.equal(census.payloadTypes["error"], 1, "the census still counts the event type");
});

test("error classes are closed: absent, known, non-terminal and unknown classifications", () => {
  assert.deepEqual([classifyTurnError(undefined), classifyTurnError(null)], ["unclassified", "unclassified"], "absent");
  assert.equal(classifyTurnError("usage_limit_exceeded"), "usage_limit_exceeded", "unit token");
  assert.equal(classifyTurnError({ active_turn_not_steerable: { turn_kind: "compact" } }), "active_turn_not_steerable", "object variant");
  assert.deepEqual(
    [classifyTurnError("made_up"), classifyTurnError({}), classifyTurnError(7), classifyTurnError({ a: 1, b: 2 })],
    ["unrecognized", "unrecognized", "unrecognized", "unrecognized"],
    "unknown shapes",
  );
  assert.deepEqual(
    ["unclassified", "other", "unrecognized", "thread_rollback_failed", "active_turn_not_steerable"].map((c) =>
      affectsTurnStatus(c as never),
    ),
    [true, true, true, false, false],
    "only the two documented non-terminal classes leave the turn running",
  );
});

test("an error that does not end the turn is not a fold event", () => {
  const d = collectRollout([metaLine("r"), startLine(0, "a"), errorLine(1, "thread_rollback_failed")]);
  assert.deepEqual(
    foldEventsOf(d.records).map((e) => e.kind),
    ["task_started"],
    "ignored by the fold",
  );
});

test("an error ends the open task as observed aborted with its class; its own later terminal dates the end", () => {
  const r = fold(
    [
      ev("task_started", "a", 0),
      ev("turn_error", "", 3, { errorClass: "usage_limit_exceeded" }),
      ev("task_complete", "a", 4, { durationMs: 4000 }),
    ],
    { fresh: false },
  );
  const t = r.tasks[0];
  assert.deepEqual(
    [t?.outcome, t?.provenance, t?.reason, t?.errorClass],
    ["aborted", "observed", "error:usage_limit_exceeded", "usage_limit_exceeded"],
    "typed by the error",
  );
  assert.deepEqual([t?.endedAt, t?.durationMs], ["T4", 4000], "the closing record dates the end");
  assert.deepEqual([r.multiplyTerminated, r.orphans], [[], []], "the closing record is not a second terminal");
});

test("a terminal after an errored task's own closing record is multiply_terminated", () => {
  const r = fold(
    [ev("task_started", "a", 0), ev("turn_error", "", 1, { errorClass: "other" }), ev("turn_aborted", "", 2), ev("task_complete", "a", 3)],
    { fresh: false },
  );
  assert.deepEqual([r.tasks[0]?.reason, r.multiplyTerminated], ["error:other", ["a"]], "unkeyed close confirmed, the keyed one is second");
});

test("an error with no open task changes nothing", () => {
  const r = fold([ev("task_started", "a", 0), ev("task_complete", "a", 1), ev("turn_error", "", 2, { errorClass: "other" })], {
    fresh: false,
  });
  assert.deepEqual([r.tasks[0]?.outcome, r.tasks[0]?.errorClass, r.orphans.length], ["complete", null, 0], "completed task untouched");
});

test("an error ends an implicit turn too, and the next user message opens a new one", () => {
  const r = fold([ev("user_turn", "", 0), ev("turn_error", "", 1, { errorClass: "server_overloaded" }), ev("user_turn", "", 2)], {
    fresh: true,
  });
  assert.deepEqual(
    r.tasks.map((t) => [t.turnId, t.outcome, t.reason]),
    [
      ["implicit:1", "aborted", "error:server_overloaded"],
      ["implicit:2", "live", "rollout_fresh_task_may_still_be_running"],
    ],
    "implicit error",
  );
});

test("a task ended by an error is not a trailing empty abort", () => {
  const r = fold(
    [
      ev("task_started", "a", 0),
      ev("task_complete", "a", 1),
      ev("task_started", "b", 2),
      ev("turn_error", "", 2.5, { errorClass: "other" }),
    ],
    { fresh: false },
  );
  assert.deepEqual(
    [r.tasks[1]?.outcome, r.tasks[1]?.trailingEmptyAbort, r.completedWithTrailingAbort],
    ["aborted", false, false],
    "a failure, not a stray abort",
  );
});
