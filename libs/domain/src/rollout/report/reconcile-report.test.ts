import { test } from "node:test";
import assert from "node:assert/strict";
import { collectRollout } from "../decode/collect.js";
import { mergeAll } from "../corpus/merge.js";
import { partialOfRollout } from "../corpus/partial.js";
import { unreadablePartial } from "../corpus/empty.js";
import {
  abortLine,
  completeLine,
  errorLine,
  eventLine,
  messageLine,
  metaLine,
  startLine,
  tokenLine,
  turnContextLine,
  userLine,
} from "../testing/lines.js";
import { reconcileReport } from "./reconcile-report.js";
import { errorClassReport } from "./error-class-report.js";

function partial(lines: string[], fresh = false) {
  return partialOfRollout({ rollout: collectRollout(lines), fresh });
}

test("reconcile rows put raw event counts beside the folded outcomes, in the reference's field names", () => {
  const p = partial(
    [
      metaLine("a"),
      startLine(0, "t1"),
      startLine(1, "t2"),
      completeLine(2, "t2"),
      completeLine(3, "t2"),
      startLine(4, "t3"),
      abortLine(5, "zz"),
    ],
    true,
  );
  const r = reconcileReport(p, { root: "/r" });
  assert.equal(r.schema, "fak-codex-reconcile/1", "schema");
  assert.deepEqual(
    r.totals,
    {
      rollouts: 1,
      task_started: 3,
      task_complete: 2,
      turn_aborted: 1,
      raw_unaccounted: 0,
      raw_unaccounted_pct: 0,
      complete: 1,
      aborted: 0,
      superseded: 1,
      process_death: 0,
      live: 1,
      substantive_completed: 1,
      closed_total: 2,
      residual_unaccounted: 1,
      residual_pct: 100 / 3,
      unclassified_after: 0,
      orphans: 1,
      multiply_terminated: 1,
    },
    "raw counts say every start was answered; the fold says one live turn remains",
  );
  assert.equal(r.all_starts_typed, true, "every start typed");
});

test("reconcile percentages keep full precision in JSON, as the reference writes them", () => {
  // Seven starts, three completions and one abort: the reference reports 42.857142857142854.
  const p = mergeAll([
    partial([
      metaLine("a", { model_provider: "fak", cli_version: "0.144.4" }),
      startLine(0, "a1"),
      startLine(1, "a2"),
      completeLine(2, "a2"),
      startLine(3, "a3"),
    ]),
    partial([metaLine("b", { model_provider: "fak", cli_version: "0.144.4" }), startLine(0, "b1"), abortLine(1, "b1")]),
    partial([metaLine("c", { model_provider: "openai", cli_version: "0.142.2" }), startLine(0, "c1"), completeLine(1, "c1")]),
    partial([
      metaLine("d", { model_provider: "openai", cli_version: "0.142.2" }),
      startLine(0, "d1"),
      startLine(1, "d2"),
      completeLine(2, "d2"),
    ]),
    unreadablePartial(),
  ]);
  const r = reconcileReport(p, { root: "/r" });
  assert.deepEqual([r.scanned, r.unreadable], [4, 1], "scanned and unreadable");
  assert.deepEqual(
    [r.totals.task_started, r.totals.raw_unaccounted, r.totals.raw_unaccounted_pct, r.totals.closed_total, r.totals.residual_pct],
    [7, 3, 42.857142857142854, 7, 0],
    "unrounded percentage",
  );
  assert.equal(r.by_provider_version["openai 0.142.2"]?.raw_unaccounted_pct, 33.333333333333336, "per row, unrounded");
  assert.equal(r.by_provider_version["fak 0.144.4"]?.raw_unaccounted_pct, 50, "per row");
});

test("error-class report counts sessions, aborts, terminals and unknown types in the reference's field names", () => {
  const torn = partial([metaLine("a"), startLine(0, "t"), abortLine(1, "t", "interrupted"), '{"timestamp":"x","ty']);
  const other = partial([
    metaLine("b"),
    eventLine(0, "item_completed"),
    eventLine(0, "thread_goal_updated"),
    eventLine(0, "item_completed"),
    startLine(0, "u"),
    abortLine(1, "u", "replaced"),
    startLine(2, "v"),
    completeLine(3, "v", { last_agent_message: "stream failed: HTTP 503 then 429 status 429" }),
    startLine(4, "w"),
    completeLine(5, "w", { last_agent_message: "all good" }),
  ]);
  const quiet = partial([metaLine("c")]);
  const r = errorClassReport(mergeAll([torn, other, quiet, unreadablePartial()]), { root: "/r" });
  assert.deepEqual(
    r,
    {
      schema: "fak-codex-errorclass/1",
      root: "/r",
      sessions: 3,
      unreadable: 1,
      payload_types: { item_completed: 2, task_complete: 2, task_started: 4, thread_goal_updated: 1, turn_aborted: 2 },
      unknown_payload_types: { item_completed: 2, thread_goal_updated: 1 },
      unknown_payload_total: 3,
      rollouts_with_unknown: 1,
      torn_tail_rollouts: 1,
      turn_aborted: 2,
      abort_classes: { other_recorded: 1, process_death_tail: 1 },
      task_complete: 2,
      terminals_with_class: 1,
      provider_error_classes: { http_429: 1, http_5xx: 1 },
    },
    "the whole report",
  );
});

test("error-class report counts error events by class, terminal or not, without their messages", () => {
  const p = partial([
    metaLine("a"),
    startLine(0, "t"),
    errorLine(1, "thread_rollback_failed", "private"),
    errorLine(2, undefined, "private"),
    errorLine(3, "usage_limit_exceeded"),
  ]);
  const r = errorClassReport(mergeAll([p, p]), { root: "/r" });
  assert.deepEqual(r.turn_error_classes, { thread_rollback_failed: 2, unclassified: 2, usage_limit_exceeded: 2 }, "classes summed");
  assert.ok(!JSON.stringify(r).includes("private"), "messages never reach the report");
});

test("an abort followed only by a message and turn context before a torn tail is still blamed on the tear", () => {
  // Neither is an analytics record: the abort is still the last one the file holds.
  const torn = partial([
    metaLine("a"),
    startLine(0, "t"),
    abortLine(1, "t", "interrupted"),
    messageLine(2, "stopping"),
    turnContextLine(3, "gpt-5"),
    userLine(4),
    '{"timestamp":"x","ty',
  ]);
  assert.deepEqual(errorClassReport(torn, { root: "/r" }).abort_classes, { process_death_tail: 1 });
  // A token count after it is one: the process lived on past the abort.
  const lived = partial([metaLine("b"), startLine(0, "t"), abortLine(1, "t", "interrupted"), tokenLine(2, 10), '{"timestamp":"x","ty']);
  assert.deepEqual(errorClassReport(lived, { root: "/r" }).abort_classes, { interrupted: 1 });
});
