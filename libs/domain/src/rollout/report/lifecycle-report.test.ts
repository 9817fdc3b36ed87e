import { test } from "node:test";
import assert from "node:assert/strict";
import { collectRollout } from "../decode/collect.js";
import { mergeAll } from "../corpus/merge.js";
import { partialOfRollout } from "../corpus/partial.js";
import { unreadablePartial } from "../corpus/empty.js";
import { abortLine, completeLine, errorLine, messageLine, metaLine, startLine, userLine } from "../testing/lines.js";
import { reconcileReport } from "./reconcile-report.js";
import { lifecycleReport } from "./lifecycle-report.js";
import { foldReportJson } from "./rollout-report.js";
import { fold } from "../lifecycle/fold.js";
import { foldEventsOf } from "../lifecycle/events.js";

function partial(lines: string[], fresh = false) {
  return partialOfRollout({ rollout: collectRollout(lines), fresh });
}

test("lifecycle report counts outcomes by provider and version", () => {
  const p = mergeAll([
    partial([
      metaLine("a", { model_provider: "openai", cli_version: "0.135.0" }),
      startLine(0, "t1"),
      startLine(1, "t2"),
      completeLine(2, "t2"),
      startLine(3, "t3"),
    ]),
    partial([metaLine("b", { model_provider: "", cli_version: "" }), startLine(0, "x")], true),
    partial([metaLine("c"), abortLine(1, undefined)]),
    partial([metaLine("d")]),
    unreadablePartial(),
  ]);
  const r = lifecycleReport(p, { root: "/sessions" });
  assert.equal(r.scanned, 3, "a rollout with no tasks and no orphans is not task-bearing");
  assert.equal(r.unreadable, 1, "unreadable counted");
  assert.deepEqual(
    r.totals,
    {
      rollouts: 3,
      starts: 4,
      unmatched_before: 3,
      rollouts_with_gap: 1,
      superseded: 1,
      process_death: 1,
      live: 1,
      complete: 1,
      aborted: 0,
      substantive_completed: 1,
      unclassified_after: 0,
      orphans: 1,
    },
    "totals",
  );
  assert.deepEqual(Object.keys(r.by_provider_version), ["openai 0.130.0", "openai 0.135.0", "unknown unknown"], "row keys, sorted");
  assert.equal(r.by_provider_version["unknown unknown"]?.live, 1, "fresh open task is live");
  assert.equal(r.all_starts_typed, true, "all typed");
});

test("a repaired supersede still counts as unmatched before reconciliation", () => {
  const r = lifecycleReport(
    partial([metaLine("a"), startLine(0, "t1"), startLine(1, "t2"), completeLine(2, "t1"), completeLine(3, "t2")]),
    { root: "" },
  );
  assert.equal(r.totals.unmatched_before, 1, "stable audit figure");
  assert.equal(r.totals.complete, 2, "both complete");
  assert.equal(r.totals.rollouts_with_gap, 1, "the rollout had a gap");
});

test("fold report JSON keeps the reference's fields and omits empty ones", () => {
  const records = collectRollout([startLine(0, "a"), completeLine(1, "a", { duration_ms: 1000 }), abortLine(2, "zz")]).records;
  const json = foldReportJson(fold(foldEventsOf(records), { fresh: false }));
  assert.deepEqual(
    json,
    {
      tasks: [
        {
          turn_id: "a",
          started_at: "2026-03-01T12:00:00.000Z",
          ended_at: "2026-03-01T12:00:01.000Z",
          outcome: "complete",
          provenance: "observed",
          duration_ms: 1000,
        },
      ],
      substantive_completed: true,
      orphans: [{ kind: "turn_aborted", turn_id: "zz", timestamp: "2026-03-01T12:00:02.000Z", reason: "interrupted" }],
    },
    "fold JSON",
  );
});

test("implicit turns and error-ended tasks are counted apart, and stay out of the reconcile residual", () => {
  const p = mergeAll([
    partial([
      metaLine("old", { cli_version: "0.40.0" }),
      userLine(0),
      messageLine(1, "ok"),
      userLine(2),
      abortLine(3, undefined),
      userLine(4),
    ]),
    partial([metaLine("new"), startLine(0, "t1"), errorLine(1, "usage_limit_exceeded"), completeLine(2, "t1")]),
  ]);
  const r = lifecycleReport(p, { root: "" });
  assert.deepEqual(
    r.totals,
    {
      rollouts: 2,
      starts: 4,
      unmatched_before: 2,
      rollouts_with_gap: 0,
      superseded: 0,
      process_death: 1,
      live: 0,
      complete: 1,
      aborted: 2,
      substantive_completed: 1,
      unclassified_after: 0,
      implicit: 3,
      implicit_unterminated: 1,
      errored: 1,
    },
    "implicit and errored counts",
  );
  assert.deepEqual(r.by_provider_version["openai 0.40.0"]?.implicit, 3, "per row");
  const rec = reconcileReport(p, { root: "" });
  assert.deepEqual(
    [rec.totals.task_started, rec.totals.closed_total, rec.totals.residual_unaccounted],
    [1, 1, 0],
    "only written starts reconcile",
  );
  assert.deepEqual(
    [rec.totals.complete, rec.totals.aborted, rec.totals.process_death, rec.totals.live, rec.totals.implicit],
    [0, 1, 0, 0, 3],
    "folded columns count written starts; implicit turns only in `implicit`",
  );
});

test("fold report JSON marks implicit tasks and the class of an ending error", () => {
  const records = collectRollout([
    userLine(0),
    startLine(1, "a"),
    errorLine(2, { http_connection_failed: { http_status_code: null } }),
  ]).records;
  const json = foldReportJson(fold(foldEventsOf(records), { fresh: false })) as { tasks: Record<string, unknown>[] };
  assert.deepEqual(
    json.tasks.map((t) => [t["turn_id"], t["implicit"], t["error_class"]]),
    [
      ["implicit:1", true, undefined],
      ["a", undefined, "http_connection_failed"],
    ],
    "task flags",
  );
});

test("a UTF-8 BOM before the first line is stripped, so the rollout keeps its provider row and cwd", () => {
  // The reference cannot decode a BOM-prefixed line: it would skip the session_meta and file the
  // rollout under "unknown unknown" with no cwd. We read the line (docs/divergences.md).
  const rollout = collectRollout([
    `\uFEFF${metaLine("bom", { model_provider: "openai", cli_version: "0.135.0", cwd: "/repo" })}`,
    startLine(0, "t"),
    completeLine(1, "t"),
  ]);
  assert.deepEqual(
    [rollout.meta?.provider, rollout.meta?.cliVersion, rollout.meta?.cwd],
    ["openai", "0.135.0", "/repo"],
    "meta read through the BOM",
  );
  const r = lifecycleReport(partialOfRollout({ rollout, fresh: false }), { root: "/r" });
  assert.deepEqual(Object.keys(r.by_provider_version), ["openai 0.135.0"], "its own provider row");
});
