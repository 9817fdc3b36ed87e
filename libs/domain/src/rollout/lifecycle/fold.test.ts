import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { collectRollout } from "../decode/collect.js";
import { completeLine, metaLine, startLine } from "../testing/lines.js";
import { foldEventsOf } from "./events.js";
import { fold } from "./fold.js";
import type { FoldEvent, FoldEventKind } from "./types.js";
import { OUTCOMES, REASON_ERROR_PREFIX, REASON_FRESH, REASON_IMPLICIT_NEXT_TURN, REASON_STALE } from "../vocabulary.js";
import { TURN_ERROR_CLASSES, affectsTurnStatus } from "../turn-error.js";

function ev(kind: FoldEventKind, turnId: string, t: number, extra: Partial<FoldEvent> = {}): FoldEvent {
  return { kind, turnId, timestamp: `T${t}`, tsMs: t * 1000, reason: "", durationMs: null, ...extra };
}

test("a completed task is observed complete; an aborted one keeps its reason", () => {
  const r = fold(
    [
      ev("task_started", "a", 0),
      ev("task_complete", "a", 5, { durationMs: 5000 }),
      ev("task_started", "b", 6),
      ev("turn_aborted", "b", 9, { reason: "interrupted" }),
    ],
    { fresh: false },
  );
  assert.deepEqual(
    r.tasks.map((t) => [t.turnId, t.outcome, t.provenance, t.reason]),
    [
      ["a", "complete", "observed", ""],
      ["b", "aborted", "observed", "interrupted"],
    ],
    "terminals",
  );
  assert.equal(r.tasks[0]?.endedAt, "T5", "ended at the terminal's timestamp");
  assert.equal(r.substantiveCompleted, true, "substantive");
});

test("a completion read from its line keeps the reason it was written with", () => {
  const { records } = collectRollout([
    metaLine("m"),
    startLine(0, "a"),
    completeLine(5, "a", { reason: "goal_met" }),
    startLine(6, "b"),
    completeLine(7, "b"),
  ]);
  const r = fold(foldEventsOf(records), { fresh: false });
  assert.deepEqual(
    r.tasks.map((t) => [t.turnId, t.outcome, t.reason]),
    [
      ["a", "complete", "goal_met"],
      ["b", "complete", ""],
    ],
  );
});

test("a start while a task is open supersedes it, synthesized, ended at the new start", () => {
  const r = fold([ev("task_started", "a", 0), ev("task_started", "b", 4), ev("task_complete", "b", 8)], { fresh: false });
  const a = r.tasks[0];
  assert.equal(a?.outcome, "superseded", "superseded");
  assert.equal(a?.provenance, "synthesized", "synthesized");
  assert.equal(a?.reason, "superseded_by_turn:b", "reason names the successor");
  assert.equal(a?.endedAt, "T4", "ended at the successor's start");
});

test("the final open task is process_death when stale and live when fresh", () => {
  const events = [ev("task_started", "a", 0)];
  const stale = fold(events, { fresh: false }).tasks[0];
  const fresh = fold(events, { fresh: true }).tasks[0];
  assert.deepEqual([stale?.outcome, stale?.reason, stale?.endedAt], ["process_death", REASON_STALE, ""], "stale");
  assert.deepEqual([fresh?.outcome, fresh?.reason, fresh?.endedAt], ["live", REASON_FRESH, ""], "fresh");
});

test("an empty-id start is an orphan and supersedes nothing", () => {
  const r = fold([ev("task_started", "a", 0), ev("task_started", "", 1), ev("task_complete", "a", 2)], { fresh: false });
  assert.equal(r.orphans.length, 1, "orphan start");
  assert.equal(r.tasks[0]?.outcome, "complete", "open task untouched");
});

test("a reused id is reported and never reopened", () => {
  const r = fold([ev("task_started", "a", 0), ev("task_complete", "a", 1), ev("task_started", "a", 2)], { fresh: false });
  assert.deepEqual(r.reused, ["a"], "reused");
  assert.equal(r.tasks.length, 1, "one row");
  assert.equal(r.tasks[0]?.outcome, "complete", "earlier row untouched");
});

test("terminals for unknown ids, or unkeyed with nothing open, are orphans", () => {
  const r = fold([ev("task_started", "a", 0), ev("task_complete", "zzz", 1), ev("task_complete", "a", 2), ev("turn_aborted", "", 3)], {
    fresh: false,
  });
  assert.equal(r.orphans.length, 2, "unknown id and unkeyed abort with nothing open");
  assert.equal(r.tasks[0]?.outcome, "complete", "the open task is not closed by an unknown id");
});

test("an unkeyed abort binds to the open task", () => {
  const r = fold([ev("task_started", "a", 0), ev("turn_aborted", "", 2, { reason: "interrupted" })], { fresh: false });
  assert.equal(r.tasks[0]?.outcome, "aborted", "legacy unkeyed abort");
  assert.equal(r.orphans.length, 0, "no orphan");
});

test("a second observed terminal is multiply_terminated and the first stays", () => {
  const r = fold([ev("task_started", "a", 0), ev("task_complete", "a", 1), ev("turn_aborted", "a", 2)], { fresh: false });
  assert.deepEqual(r.multiplyTerminated, ["a"], "reported");
  assert.equal(r.tasks[0]?.outcome, "complete", "first terminal kept");
});

test("a late observed terminal repairs a superseded task without changing the active one", () => {
  const r = fold([ev("task_started", "a", 0), ev("task_started", "b", 2), ev("task_complete", "a", 3), ev("task_complete", "b", 4)], {
    fresh: false,
  });
  assert.deepEqual(
    r.tasks.map((t) => [t.outcome, t.provenance, t.repaired]),
    [
      ["complete", "observed", true],
      ["complete", "observed", false],
    ],
    "repaired",
  );
  const open = fold([ev("task_started", "a", 0), ev("task_started", "b", 2), ev("task_complete", "a", 3)], { fresh: false });
  assert.equal(open.tasks[1]?.outcome, "process_death", "b stays the open task");
});

test("trailing empty abort needs a completed predecessor, no calls and a known short duration", () => {
  const base = [ev("task_started", "a", 0), ev("task_complete", "a", 10), ev("task_started", "b", 20)];
  const flagged = fold([...base, ev("turn_aborted", "b", 21, { durationMs: 2000 })], { fresh: false });
  assert.equal(flagged.tasks[1]?.trailingEmptyAbort, true, "2000 ms is inclusive");
  assert.equal(flagged.completedWithTrailingAbort, true, "last task flagged");
  const long = fold([...base, ev("turn_aborted", "b", 40, { durationMs: 2001 })], { fresh: false });
  assert.equal(long.tasks[1]?.trailingEmptyAbort, false, "2001 ms is not");
  const fromWall = fold([...base, ev("turn_aborted", "b", 21.5)], { fresh: false });
  assert.equal(fromWall.tasks[1]?.trailingEmptyAbort, true, "missing duration falls back to the timestamps");
  const unknown = fold([...base, { ...ev("turn_aborted", "b", 0), tsMs: null }], { fresh: false });
  assert.equal(unknown.tasks[1]?.trailingEmptyAbort, false, "an unknown duration is not flagged");
  const withCall = fold([...base, ev("tool_call", "", 20.5), ev("turn_aborted", "b", 21, { durationMs: 500 })], { fresh: false });
  assert.equal(withCall.tasks[1]?.trailingEmptyAbort, false, "a task that called a tool is not empty");
});

test("thread_rolled_back marks the last finished tasks", () => {
  const r = fold(
    [
      ev("task_started", "a", 0),
      ev("task_complete", "a", 1),
      ev("task_started", "b", 2),
      ev("task_complete", "b", 3),
      { ...ev("thread_rolled_back", "", 4), numTurns: 1 },
    ],
    { fresh: false },
  );
  assert.deepEqual(
    r.tasks.map((t) => t.rolledBack),
    [false, true],
    "last finished task rolled back",
  );
  assert.equal(r.tasks.length, 2, "still counted");
});

const kinds: FoldEventKind[] = [
  "task_started",
  "task_complete",
  "turn_aborted",
  "tool_call",
  "thread_rolled_back",
  "user_turn",
  "agent_output",
  "compacted",
  "turn_error",
];
const eventArb = fc.record({
  kind: fc.constantFrom(...kinds),
  turnId: fc.constantFrom("", "a", "b", "c", "d"),
  t: fc.integer({ min: 0, max: 100 }),
  duration: fc.option(fc.integer({ min: 0, max: 5000 })),
  errorClass: fc.constantFrom(...TURN_ERROR_CLASSES.filter(affectsTurnStatus)),
});
// Half the runs open with turn evidence before any start, so implicit turns are exercised.
const rolloutArb = fc.tuple(
  fc.array(fc.constantFrom<FoldEventKind>("user_turn", "agent_output", "compacted"), { maxLength: 3 }),
  fc.array(eventArb, { maxLength: 40 }),
);

test("property: every start, written or implicit, gets exactly one terminal and none is unclassified", () => {
  fc.assert(
    fc.property(rolloutArb, fc.boolean(), ([lead, raw], fresh) => {
      const events = [
        ...lead.map((kind, i) => ev(kind, "", i, { seq: i })),
        ...raw.map((e, i) =>
          ev(e.kind, e.turnId, e.t, { durationMs: e.duration, numTurns: 1, errorClass: e.errorClass, seq: lead.length + i }),
        ),
      ];
      const r = fold(events, { fresh });
      const distinctStarts = new Set(events.filter((e) => e.kind === "task_started" && e.turnId !== "").map((e) => e.turnId));
      const implicit = r.tasks.filter((t) => t.implicit);
      assert.equal(r.tasks.length - implicit.length, distinctStarts.size, "one written row per distinct started id");
      const firstWritten = r.tasks.findIndex((t) => !t.implicit);
      assert.ok(
        firstWritten < 0 || implicit.every((t) => r.tasks.indexOf(t) < firstWritten),
        "implicit turns only before the first written start",
      );
      implicit.forEach((t, i) => assert.equal(t.turnId, `implicit:${i + 1}`, "implicit ids count in file order"));
      for (const t of r.tasks) {
        assert.ok(OUTCOMES.includes(t.outcome), `typed outcome for ${t.turnId}`);
        if (t.provenance === "observed")
          assert.ok(t.outcome === "complete" || t.outcome === "aborted", "observed terminals are complete or aborted");
        else
          assert.ok(
            ["superseded", "process_death", "live"].includes(t.outcome) ||
              (t.implicit && t.outcome === "complete" && t.reason === REASON_IMPLICIT_NEXT_TURN),
            "synthesized terminals",
          );
        assert.equal(t.errorClass !== null, t.reason.startsWith(REASON_ERROR_PREFIX), "errors name their class");
      }
      const open = r.tasks.filter((t) => t.outcome === "live" || t.outcome === "process_death");
      assert.ok(open.length <= 1, "at most one task is left open");
      if (open.length === 1) assert.equal(open[0], r.tasks[r.tasks.length - 1], "only the last task can be open");
      assert.ok(
        open.every((t) => (fresh ? t.outcome === "live" : t.outcome === "process_death")),
        "freshness decides the open tail",
      );
      const starts = events.filter((e) => e.kind === "task_started").length;
      const emptyStarts = events.filter((e) => e.kind === "task_started" && e.turnId === "").length;
      assert.equal(r.tasks.length - implicit.length + r.reused.length + emptyStarts, starts, "every start is a task, a reuse or an orphan");
      const terminals = events.filter((e) => e.kind === "task_complete" || e.kind === "turn_aborted").length;
      const byTerminal = r.tasks.filter((t) => t.provenance === "observed" && t.errorClass === null).length;
      const errored = r.tasks.filter((t) => t.errorClass !== null).length;
      const accounted = byTerminal + r.multiplyTerminated.length + (r.orphans.length - emptyStarts);
      // An errored task may absorb its own closing record, at most one each.
      assert.ok(accounted <= terminals && terminals <= accounted + errored, "every terminal is accounted for once");
      assert.ok(errored <= events.filter((e) => e.kind === "turn_error").length, "every errored task had an error");
    }),
    { numRuns: 1000 },
  );
});
