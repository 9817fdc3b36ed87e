import { test } from "node:test";
import assert from "node:assert/strict";
import { collectRollout } from "../decode/collect.js";
import { mergeAll } from "../corpus/merge.js";
import { partialOfRollout } from "../corpus/partial.js";
import { abortLine, completeLine, errorLine, metaLine, startLine } from "../testing/lines.js";
import { reconcileReport } from "./reconcile-report.js";
import { errorClassReport } from "./error-class-report.js";

test("reconcile rows put raw event counts beside the residual after reconciliation", () => {
  const p = partialOfRollout({
    rollout: collectRollout([
      metaLine("a"), startLine(0, "t1"), startLine(1, "t2"), completeLine(2, "t2"), completeLine(3, "t2"), startLine(4, "t3"), abortLine(5, "zz"),
    ]),
    fresh: true,
  });
  const r = reconcileReport(p, { root: "/r" });
  assert.equal(r.schema, "fak-codex-reconcile/1", "schema");
  assert.deepEqual(r.totals, {
    rollouts: 1, started: 3, complete: 2, aborted: 1, raw_unaccounted: 0, closed_total: 2, residual_unaccounted: 1,
    raw_unaccounted_pct: 0, residual_unaccounted_pct: 33.33,
  }, "one live turn remains after reconciliation");
});

test("error-class report counts abort causes, status classes, the census and torn tails", () => {
  const torn = partialOfRollout({
    rollout: collectRollout([metaLine("a"), startLine(0, "t"), abortLine(1, "t", "interrupted"), '{"timestamp":"x","ty']),
    fresh: false,
  });
  const other = partialOfRollout({
    rollout: collectRollout([
      metaLine("b"), startLine(0, "u"), abortLine(1, "u", "replaced"), startLine(2, "v"),
      completeLine(3, "v", { last_agent_message: "stream failed: HTTP 503 then 429 status 429" }),
    ]),
    fresh: false,
  });
  const r = errorClassReport(mergeAll([torn, other]), { root: "/r" });
  assert.equal(r.schema, "fak-codex-errorclass/1", "schema");
  assert.equal(r.torn_tails, 1, "torn tails");
  assert.deepEqual(r.abort_classes, { other_recorded: 1, process_death_tail: 1 }, "abort classes");
  assert.deepEqual(r.status_classes, { http_429: 1, http_5xx: 1 }, "status classes");
  assert.deepEqual(r.payload_types, { task_complete: 1, task_started: 3, turn_aborted: 2 }, "census");
  assert.deepEqual(r.unknown_payload_types, {}, "no unknown types");
  assert.equal(r.turn_error_classes, undefined, "no error events, no error classes");
});

test("error-class report counts error events by class, terminal or not, without their messages", () => {
  const p = partialOfRollout({
    rollout: collectRollout([metaLine("a"), startLine(0, "t"), errorLine(1, "thread_rollback_failed", "private"), errorLine(2, undefined, "private"), errorLine(3, "usage_limit_exceeded")]),
    fresh: false,
  });
  const r = errorClassReport(mergeAll([p, p]), { root: "/r" });
  assert.deepEqual(r.turn_error_classes, { thread_rollback_failed: 2, unclassified: 2, usage_limit_exceeded: 2 }, "classes summed");
  assert.ok(!JSON.stringify(r).includes("private"), "messages never reach the report");
});
