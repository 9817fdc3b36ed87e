import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeRollout } from "./analyze.js";
import { collectRollout } from "../decode/collect.js";
import type { TaskAnalytics } from "./types.js";
import {
  callLine,
  compactedLine,
  completeLine,
  messageLine,
  metaLine,
  outputLine,
  startLine,
  tokenLine,
  turnContextLine,
  unifiedOutput,
  userLine,
} from "../testing/lines.js";

function onlyTask(lines: string[]): TaskAnalytics {
  const d = collectRollout([metaLine("r1"), ...lines]);
  const a = analyzeRollout({ meta: d.meta, records: d.records, fresh: false });
  assert.equal(a.tasks.length, 1, "one task");
  return a.tasks[0]!;
}

// The output line of `outputLine` with its timestamp removed.
function untimed(line: string): string {
  const { timestamp: _, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify(rest);
}

const split = (t: TaskAnalytics) => ({ tool: t.toolMs, wait: t.waitMs, model: t.modelMs, idle: t.idleMs });

test("an output without a timestamp closes its call instead of booking the rest of the task as tool time", () => {
  const t = onlyTask([
    startLine(0, "t"),
    callLine(1, "c1", "exec_command", { cmd: "make" }),
    untimed(outputLine(2, "c1", unifiedOutput(0))),
    messageLine(5.23, "thinking"),
    completeLine(6, "t"),
  ]);
  // The call is known to be out only until the output line: the last time seen before it is 1 s.
  assert.deepEqual(split(t), { tool: 0, wait: 0, model: 6_000, idle: 0 }, "after the untimed output the time is the model's");
  assert.deepEqual(t.critical, [{ category: "model", ms: 6_000 }], "no tool row");
});

test("an untimed output closes only its own call: a parallel call stays in flight", () => {
  const t = onlyTask([
    startLine(0, "t"),
    callLine(1, "a", "exec_command", { cmd: "make" }),
    callLine(1, "b", "exec_command", { cmd: "make test" }),
    untimed(outputLine(2, "a", unifiedOutput(0))),
    outputLine(4, "b", unifiedOutput(0)),
    completeLine(5, "t"),
  ]);
  assert.deepEqual(split(t), { tool: 3_000, wait: 0, model: 2_000, idle: 0 }, "b's flight from 1 s to 4 s is tool time");
});

test("an output written before its call is not joined to it, and the call's time is the model's", () => {
  const t = onlyTask([
    startLine(0, "t"),
    outputLine(1, "c1", unifiedOutput(0)),
    callLine(2, "c1", "exec_command", { cmd: "make" }),
    messageLine(4, "done"),
    completeLine(5, "t"),
  ]);
  assert.deepEqual(t.classes, { missing_result: 1 }, "the call has no result");
  assert.deepEqual(split(t), { tool: 0, wait: 0, model: 5_000, idle: 0 }, "no tool time for an unanswered call");
});

test("time after an unanswered call up to the task boundary is model time, then idle", () => {
  const t = onlyTask([startLine(0, "t"), callLine(1, "c1", "exec_command", { cmd: "make" }), completeLine(401, "t")]);
  assert.deepEqual(t.classes, { missing_result: 1 }, "the call has no result");
  assert.deepEqual(
    split(t),
    { tool: 0, wait: 0, model: 301_000, idle: 100_000 },
    "the gap to the boundary is model time up to the stall threshold",
  );
});

test("a terminal timed before records written ahead of it leaves their time booked: the window reaches the latest", () => {
  // Time is booked as records stream in; the completion written last but timed at 5 s arrives
  // after 10 s were booked, so the window runs to 10 s instead of being cut back.
  const t = onlyTask([startLine(0, "t"), tokenLine(10, 1_000), completeLine(5, "t")]);
  assert.deepEqual([t.wallMs, split(t)], [10_000, { tool: 0, wait: 0, model: 10_000, idle: 0 }], "booked time stays, the wall reaches it");
});

test("time booked while an earlier call is still unanswered goes to the first call that is answered", () => {
  // Whether `a` will be answered is unknown until the task ends, so its time waits; it never is.
  const t = onlyTask([
    startLine(0, "t"),
    callLine(1, "a", "exec_command", { cmd: "make" }),
    callLine(2, "b", "exec_command", { cmd: "make test" }),
    outputLine(5, "b", unifiedOutput(0)),
    completeLine(6, "t"),
  ]);
  assert.deepEqual(split(t), { tool: 3_000, wait: 0, model: 3_000, idle: 0 }, "b's flight is tool time, the rest the model's");
  assert.deepEqual(t.classes, { missing_result: 1, ok: 1 }, "a has no result");
});

test("a long task interleaving never-answered calls with answered ones books each answered flight as tool time", () => {
  // Every unanswered call stays open to the end, so the time booked meanwhile waits on ever more
  // calls; it is kept by how many of them it depends on, not once per booking.
  const lines = [startLine(0, "t")];
  let s = 1;
  for (let i = 0; i < 3000; i += 1) {
    lines.push(callLine(s++, `never-${i}`, "exec_command", { cmd: "make" }));
    lines.push(callLine(s++, `ok-${i}`, "exec_command", { cmd: "ls" }));
    lines.push(outputLine(s++, `ok-${i}`, unifiedOutput(0)));
  }
  lines.push(completeLine(s, "t"));
  const t = onlyTask(lines);
  assert.deepEqual(split(t), { tool: 3_000_000, wait: 0, model: 6_001_000, idle: 0 }, "one second of tool time per answered call");
  assert.deepEqual(t.classes, { missing_result: 3000, ok: 3000 }, "the unanswered calls are missing results");
});

test("a stall is not cut short by a compaction, a message or turn context written during it", () => {
  // Only a tool result or a record the model emits (call, token count, terminal) ends a gap; the
  // 400 s between the output and the next call is one stall, whatever is written in between.
  const d = collectRollout([
    metaLine("r1"),
    startLine(0, "t"),
    callLine(10, "c1", "exec_command", { cmd: "make" }),
    outputLine(20, "c1", unifiedOutput(0)),
    messageLine(100, "still thinking"),
    compactedLine(220),
    turnContextLine(230, "gpt-5"),
    userLine(240, "are you there?"),
    callLine(420, "c2", "exec_command", { cmd: "make test" }),
    outputLine(421, "c2", unifiedOutput(0)),
    completeLine(422, "t"),
  ]);
  const a = analyzeRollout({ meta: d.meta, records: d.records, fresh: false });
  const t = a.tasks[0]!;
  assert.deepEqual(split(t), { tool: 11_000, wait: 0, model: 311_000, idle: 100_000 }, "300 s of the stall is the model's, the rest idle");
  assert.deepEqual([t.idleGaps, a.behavior.stallGaps, a.behavior.maxGapS], [1, 1, 400], "one stall of 400 s");
  assert.equal(t.compactions, 1, "the compaction is still counted");
});

test("a compaction without a timestamp is still counted in its task", () => {
  // The reference's timeline passes over untimed records, so such a compaction was never counted.
  const t = onlyTask([startLine(0, "t"), untimed(compactedLine(1)), tokenLine(2, 50_000), completeLine(3, "t")]);
  assert.equal(t.compactions, 1, "counted where it stands");
  assert.deepEqual(split(t), { tool: 0, wait: 0, model: 3_000, idle: 0 }, "and it books no time");
});

test("a task whose start has no timestamp has no first-token time, instead of 0 ms from its own first record", () => {
  const lines = [
    untimed(startLine(0, "t")),
    callLine(5, "c1", "exec_command", { cmd: "ls" }),
    outputLine(6, "c1", unifiedOutput(0)),
    completeLine(8, "t"),
  ];
  const t = onlyTask(lines);
  assert.deepEqual([t.ttftMs, t.ttftSource], [-1, null], "unobserved, as the reference leaves it");
  assert.deepEqual(split(t), { tool: 1_000, wait: 0, model: 2_000, idle: 0 }, "the window still opens at the first timed record");
});
