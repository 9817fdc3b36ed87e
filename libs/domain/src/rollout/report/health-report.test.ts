import { test } from "node:test";
import assert from "node:assert/strict";
import { collectRollout } from "../decode/collect.js";
import { emptyPartial } from "../corpus/empty.js";
import { mergeAll } from "../corpus/merge.js";
import { partialOfRollout } from "../corpus/partial.js";
import { interpolatedPercentile } from "../corpus/percentiles.js";
import { foldRecords } from "../analytics/analyze.js";
import { sessionHealth } from "../health/session.js";
import {
  abortLine,
  callLine,
  compactedLine,
  completeLine,
  customCallLine,
  messageLine,
  metaLine,
  outputLine,
  startLine,
  tokenLine,
  turnContextLine,
  unifiedOutput,
} from "../testing/lines.js";
import { compactionStats, healthReport } from "./health-report.js";

function health(lines: string[], session = "s") {
  const d = collectRollout(lines);
  return sessionHealth(session, foldRecords({ meta: d.meta, records: d.records, fresh: false }));
}

test("session health counts turns, every kind of tool call and classifies zero-tool completions", () => {
  const h = health([
    metaLine("m"),
    turnContextLine(0, "gpt-a"),
    callLine(0.5, "pre", "exec_command", { cmd: "ls" }),
    startLine(1, "t1"),
    customCallLine(2, "p", "apply_patch", "*** Begin Patch\n*** End Patch"),
    completeLine(3, "t1"),
    startLine(4, "t2"),
    messageLine(5, "Here you go", "final_answer"),
    messageLine(5.5, "I'll use the skill", "commentary"),
    completeLine(6, "t2"),
    startLine(7, "t3"),
    completeLine(8, "t3"),
    startLine(9, "t4"),
    abortLine(10, "t4"),
    startLine(11, "t5"),
    turnContextLine(11, "gpt-b"),
    startLine(12, "t6"),
  ]);
  assert.deepEqual([h.turns, h.toolCalls, h.model], [6, 2, "gpt-b"], "turns, calls incl. freeform and pre-turn, last model");
  assert.deepEqual(h.zeroTool, { guard_refused: 0, preamble_noop: 0, talk_only: 1, silent: 1 }, "final answer outranks commentary");
  assert.deepEqual([h.aborted, h.superseded, h.unterminated], [1, 1, 1], "aborted, superseded, unterminated");
});

test("a call written after a turn completed does not make that turn one that used a tool", () => {
  // The turn had ended when the call was written: it completed without a tool, as did t2.
  const lines = [
    metaLine("late"),
    startLine(1, "t1"),
    completeLine(2, "t1"),
    callLine(3, "c", "exec_command", { cmd: "ls" }),
    outputLine(4, "c", unifiedOutput(0)),
    startLine(5, "t2"),
    completeLine(6, "t2"),
  ];
  const h = health(lines);
  assert.deepEqual([h.turns, h.toolCalls, h.zeroTool.silent], [2, 1, 2], "both turns are zero-tool, the call still counts");
  const r = healthReport(partialOfRollout({ rollout: collectRollout(lines), fresh: false, session: "late" }), { top: 10 });
  assert.deepEqual([r.totals.zero_tool_turns, r.totals.zero_tool_rate], [2, 1], "every turn is zero-tool");
  assert.deepEqual(r.flags, ["HIGH_ZERO_TOOL_RATE: 2/2 turns (100%) call no tool"]);
});

test("each compaction uses a fresh occupancy reading once", () => {
  const h = health([
    startLine(0, "t"),
    compactedLine(1),
    tokenLine(2, 30000),
    tokenLine(3, 0),
    compactedLine(4),
    compactedLine(5),
    tokenLine(6, 90000),
    compactedLine(7),
  ]);
  assert.deepEqual(h.compactions, [30000, 90000], "no reading before the first, no repeat for the third");
});

test("compaction stats bucket premature, near-budget and near-window occupancies", () => {
  const s = compactionStats([30000, 81600, 105600, 105601, 210000]);
  assert.deepEqual([s.events, s.budget, s.premature_lt40k, s.near_budget_96k, s.near_window_200k_plus], [5, 96000, 1, 2, 1], "buckets");
  assert.equal(interpolatedPercentile([10, 20, 30, 40], 50), 25, "interpolated p50");
  assert.equal(interpolatedPercentile([10, 20, 30, 40], 90), 37, "interpolated p90 truncated");
  assert.equal(interpolatedPercentile([], 50), 0, "empty");
});

test("health report flags zero-tool rate, refusal loops before truncation and premature compaction", () => {
  const refusing = (id: string, n: number): string[] => {
    const lines = [metaLine(id), turnContextLine(0, "gpt-x")];
    for (let i = 0; i < n; i += 1)
      lines.push(
        startLine(i * 10 + 1, `${id}-${i}`),
        messageLine(i * 10 + 2, "the proposed tool call were refused"),
        completeLine(i * 10 + 3, `${id}-${i}`),
      );
    return lines;
  };
  const working = [
    metaLine("w"),
    startLine(0, "w1"),
    callLine(1, "c", "exec_command", { cmd: "ls" }),
    outputLine(2, "c", unifiedOutput(0)),
    tokenLine(2, 20000),
    compactedLine(3),
    completeLine(4, "w1"),
  ];
  const p = mergeAll([
    partialOfRollout({ rollout: collectRollout(refusing("a", 3)), fresh: false, session: "a" }),
    partialOfRollout({ rollout: collectRollout(refusing("b", 5)), fresh: false, session: "b" }),
    partialOfRollout({ rollout: collectRollout(working), fresh: false, session: "w" }),
    partialOfRollout({ rollout: collectRollout([metaLine("empty")]), fresh: false, session: "empty" }),
  ]);
  const r = healthReport(p, { top: 1 });
  assert.equal(r.schema, "fak-codex-turn-health/2", "schema token");
  assert.equal(r.sessions_with_turns, 3, "sessions without turns dropped");
  assert.deepEqual(r.totals, { turns: 9, tool_calls: 1, tool_calls_per_turn: 0.1, zero_tool_turns: 8, zero_tool_rate: 0.889 }, "totals");
  assert.deepEqual(r.guard_refusal_loops, [{ session: "b", model: "gpt-x", refused_turns: 5, turns: 5 }], "ranked and cut to top");
  assert.deepEqual(
    r.turn_inflation.map((x) => x.session),
    ["b"],
    "inflation needs five turns",
  );
  assert.deepEqual(
    r.flags,
    [
      "HIGH_ZERO_TOOL_RATE: 8/9 turns (89%) call no tool",
      "GUARD_REFUSAL_LOOPS: 2 session(s) re-propose refused tool calls",
      "PREMATURE_COMPACTION: 1 compaction(s) fired under 40K occupancy (stuck-loop symptom)",
    ],
    "flags",
  );
  assert.equal(r.scanned_files, 4, "every offered file counted");
});

test("a zero-tool share exactly halfway between two whole percents prints to the even one, as a %.0f format does", () => {
  const pct = (zero: number, turns: number): string => {
    const p = emptyPartial();
    p.health.turns = turns;
    p.health.zeroTool.talk_only = zero;
    return healthReport(p).flags[0] ?? "";
  };
  assert.equal(pct(9, 40), "HIGH_ZERO_TOOL_RATE: 9/40 turns (22%) call no tool", "22.5 rounds down to even");
  assert.equal(pct(3, 8), "HIGH_ZERO_TOOL_RATE: 3/8 turns (38%) call no tool", "37.5 rounds up to even");
  assert.equal(pct(8, 9), "HIGH_ZERO_TOOL_RATE: 8/9 turns (89%) call no tool", "no tie rounds to nearest");
});
