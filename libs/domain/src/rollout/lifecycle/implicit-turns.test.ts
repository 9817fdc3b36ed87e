import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { fold } from "./fold.js";
import { foldEventsOf } from "./events.js";
import type { FoldEvent, FoldEventKind, FoldReport } from "./types.js";
import { collectRollout } from "../decode/collect.js";
import { REASON_FRESH, REASON_IMPLICIT_NEXT_TURN, REASON_STALE } from "../vocabulary.js";
import { metaLine, startLine, userItemLine, userLine } from "../testing/lines.js";

let seq = 0;
function ev(kind: FoldEventKind, t: number, extra: Partial<FoldEvent> = {}): FoldEvent {
  seq += 1;
  return { kind, turnId: "", timestamp: `T${t}`, tsMs: t * 1000, reason: "", durationMs: null, seq, ...extra };
}

function rows(r: FoldReport): string[][] {
  return r.tasks.map((t) => [t.turnId, t.outcome, t.provenance, t.reason]);
}

test("with no start written, each user message opens an implicit turn and closes the previous one as complete", () => {
  const r = fold([ev("user_turn", 0), ev("agent_output", 1), ev("user_turn", 5), ev("agent_output", 6)], { fresh: false });
  assert.deepEqual(
    rows(r),
    [
      ["implicit:1", "complete", "synthesized", REASON_IMPLICIT_NEXT_TURN],
      ["implicit:2", "process_death", "synthesized", REASON_STALE],
    ],
    "typed terminals",
  );
  assert.ok(
    r.tasks.every((t) => t.implicit),
    "flagged implicit",
  );
  assert.deepEqual(
    [r.tasks[0]?.startedAt, r.tasks[0]?.endedAt],
    ["T0", ""],
    "starts at the user message; the successor's time is not its end",
  );
  assert.equal(r.substantiveCompleted, true, "a completed implicit turn is substantive");
});

test("agent output opens an implicit turn only when no turn holds the timeline", () => {
  const r = fold([ev("agent_output", 0), ev("agent_output", 1), ev("tool_call", 2)], { fresh: false });
  assert.equal(r.tasks.length, 1, "the second output joins the first turn");
  assert.equal(r.tasks[0]?.toolCalls, 1, "the call is counted in it");
  const done = fold([ev("user_turn", 0), ev("task_complete", 1), ev("agent_output", 2)], { fresh: false });
  assert.deepEqual(
    rows(done),
    [
      ["implicit:1", "complete", "observed", ""],
      ["implicit:2", "process_death", "synthesized", REASON_STALE],
    ],
    "a completion releases the timeline",
  );
});

test("an unkeyed abort ends the open implicit turn as observed aborted; later output stays in it", () => {
  const r = fold(
    [ev("user_turn", 0), ev("turn_aborted", 2, { reason: "interrupted" }), ev("agent_output", 3), ev("tool_call", 4), ev("user_turn", 9)],
    { fresh: false },
  );
  assert.deepEqual(
    rows(r),
    [
      ["implicit:1", "aborted", "observed", "interrupted"],
      ["implicit:2", "process_death", "synthesized", REASON_STALE],
    ],
    "abort, then a new turn",
  );
  assert.equal(r.tasks[0]?.toolCalls, 1, "output after the abort is still positioned in the aborted turn");
  assert.equal(r.orphans.length, 0, "the legacy abort is no longer an orphan");
});

test("a compaction with no turn held joins the implicit turn opened after it", () => {
  const compaction = ev("compacted", 0);
  const r = fold([compaction, ev("tool_call", 1), ev("user_turn", 2)], { fresh: false });
  assert.deepEqual(
    [r.tasks[0]?.openedAt, r.tasks[0]?.startedAt, r.tasks[0]?.toolCalls],
    [compaction.seq, "T0", 1],
    "opened at the compaction",
  );
  const alone = fold([ev("compacted", 0), ev("tool_call", 1)], { fresh: false });
  assert.equal(alone.tasks.length, 0, "a compaction alone opens no turn");
});

test("the first written start closes an open implicit turn and ends implicit turns for the rest of the rollout", () => {
  const r = fold(
    [
      ev("user_turn", 0),
      ev("task_started", 3, { turnId: "a" }),
      ev("task_complete", 4, { turnId: "a" }),
      ev("user_turn", 5),
      ev("agent_output", 6),
    ],
    { fresh: false },
  );
  assert.deepEqual(
    rows(r),
    [
      ["implicit:1", "complete", "synthesized", REASON_IMPLICIT_NEXT_TURN],
      ["a", "complete", "observed", ""],
    ],
    "no implicit turn after a start",
  );
  const orphanStart = fold([ev("user_turn", 0), ev("task_started", 1), ev("user_turn", 2)], { fresh: false });
  assert.equal(orphanStart.tasks.length, 2, "an id-less start is an orphan and does not end implicit turns");
});

test("the final open implicit turn is process_death when stale and live when fresh", () => {
  const events = [ev("user_turn", 0)];
  assert.deepEqual(rows(fold(events, { fresh: false })), [["implicit:1", "process_death", "synthesized", REASON_STALE]], "stale");
  assert.deepEqual(rows(fold(events, { fresh: true })), [["implicit:1", "live", "synthesized", REASON_FRESH]], "fresh");
});

test("a keyed terminal for an unknown id stays an orphan and leaves the implicit turn open", () => {
  const r = fold([ev("user_turn", 0), ev("task_complete", 1, { turnId: "zzz" })], { fresh: false });
  assert.deepEqual([r.orphans.length, r.tasks[0]?.outcome], [1, "process_death"], "orphan kept");
});

test("user message items stand in for user_message events only in a rollout that has none", () => {
  const items = collectRollout([
    metaLine("r"),
    userItemLine(0, "fix it"),
    userItemLine(1, "<environment_context>cwd</environment_context>"),
    userItemLine(5, "again"),
  ]);
  assert.deepEqual(
    foldEventsOf(items.records).map((e) => e.kind),
    ["user_turn", "user_turn"],
    "injected context is not the user speaking",
  );
  const both = collectRollout([metaLine("r"), userItemLine(0, "fix it"), userLine(0.1, "fix it"), startLine(1, "a")]);
  assert.deepEqual(
    foldEventsOf(both.records).map((e) => e.kind),
    ["user_turn", "task_started"],
    "the event wins; the item is not read twice",
  );
});

const evidence: FoldEventKind[] = ["user_turn", "agent_output", "compacted"];
const eventArb = fc.record({
  kind: fc.constantFrom<FoldEventKind>(
    "task_started",
    "task_complete",
    "turn_aborted",
    "tool_call",
    "user_turn",
    "agent_output",
    "compacted",
  ),
  turnId: fc.constantFrom("", "a", "b"),
  t: fc.integer({ min: 0, max: 50 }),
});

test("property: a rollout that starts with a written start folds as if it had no implicit evidence", () => {
  fc.assert(
    fc.property(fc.array(eventArb, { maxLength: 30 }), fc.boolean(), (raw, fresh) => {
      const events = [
        ev("task_started", 0, { turnId: "first" }),
        ...raw.map((e) => ev(e.kind, e.t, { turnId: e.kind === "user_turn" ? "" : e.turnId })),
      ];
      const without = events.filter((e) => !evidence.includes(e.kind));
      assert.deepEqual(fold(events, { fresh }), fold(without, { fresh }), "evidence after the first start changes nothing");
    }),
    { numRuns: 300 },
  );
});
