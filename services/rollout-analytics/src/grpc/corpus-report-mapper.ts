import type { MessageInitShape } from "@bufbuild/protobuf";
import type { AnalyticsReportJson, CountsJson, HealthReportJson, LifecycleReportJson, Percentiles } from "@crs/domain/rollout";
import type {
  AnalyticsCorpusSchema,
  CorpusReportSchema,
  CountsSchema,
  HealthReportSchema,
  PercentilesSchema,
} from "@crs/contracts/gen/crs/analytics/v1/report_pb";
import { countMap, int64 } from "./proto-values.js";
import { CLASS_ENUM } from "./rollout-analytics-mapper.js";
import { OUTCOME_ENUM } from "./rollout-lifecycle-mapper.js";

/** The proto form of one lifecycle count row; omitted JSON fields are zero. */
export function countsMessage(c: CountsJson): MessageInitShape<typeof CountsSchema> {
  return {
    rollouts: int64(c.rollouts),
    starts: int64(c.starts),
    unmatchedBefore: int64(c.unmatched_before),
    rolloutsWithGap: int64(c.rollouts_with_gap),
    superseded: int64(c.superseded),
    processDeath: int64(c.process_death),
    live: int64(c.live),
    complete: int64(c.complete),
    aborted: int64(c.aborted),
    completedWithTrailingAbort: int64(c.completed_with_trailing_abort ?? 0),
    substantiveCompleted: int64(c.substantive_completed ?? 0),
    unclassifiedAfter: int64(c.unclassified_after),
    orphans: int64(c.orphans ?? 0),
    reused: int64(c.reused ?? 0),
    multiplyTerminated: int64(c.multiply_terminated ?? 0),
    implicit: int64(c.implicit ?? 0),
    implicitUnterminated: int64(c.implicit_unterminated ?? 0),
    errored: int64(c.errored ?? 0),
  };
}

/** The proto form of the lifecycle corpus report. */
export function corpusReportMessage(r: LifecycleReportJson): MessageInitShape<typeof CorpusReportSchema> {
  return {
    root: r.root,
    scanned: int64(r.scanned),
    unreadable: int64(r.unreadable ?? 0),
    totals: countsMessage(r.totals),
    byProviderVersion: Object.fromEntries(Object.entries(r.by_provider_version).map(([key, c]) => [key, countsMessage(c)])),
    allStartsTyped: r.all_starts_typed,
  };
}

/** The proto form of a percentile summary. */
export function percentilesMessage(p: Percentiles): MessageInitShape<typeof PercentilesSchema> {
  return { n: int64(p.n), p50: p.p50, p90: p.p90, p95: p.p95, p99: p.p99, max: p.max };
}

/** The proto form of the analytics corpus report; an unobserved outlier TTFT stays absent. */
export function analyticsCorpusMessage(r: AnalyticsReportJson): MessageInitShape<typeof AnalyticsCorpusSchema> {
  const resume = r.fresh_headless_resume;
  return {
    root: r.root,
    sessions: int64(r.sessions),
    unreadable: int64(r.unreadable ?? 0),
    tasks: int64(r.tasks),
    completed: int64(r.completed),
    toolCalls: int64(r.tool_calls),
    duration: percentilesMessage(r.duration),
    ttft: percentilesMessage(r.ttft),
    outcomes: countMap(r.outcomes),
    classes: countMap(r.classes),
    reasons: (r.reasons ?? []).map((row) => ({ toolClass: CLASS_ENUM[row.class], reason: row.reason, count: int64(row.count) })),
    byTool: Object.fromEntries(
      Object.entries(r.by_tool ?? {}).map(([tool, t]) => [
        tool,
        { calls: int64(t.calls), ms: int64(t.ms), failures: int64(t.failures), timeouts: int64(t.timeouts) },
      ]),
    ),
    topTasks: (r.top_tasks ?? []).map((t) => ({
      session: t.session,
      turnId: t.turn_id,
      outcome: OUTCOME_ENUM[t.outcome],
      durationS: t.duration_s,
      ...(t.ttft_s === null ? {} : { ttftS: t.ttft_s }),
      idleS: t.idle_s,
      top: (t.top ?? []).map((c) => ({ category: c.category, ms: int64(c.ms) })),
    })),
    timeoutKills: int64(r.timeout_kills),
    sleepPolls: int64(r.sleep_polls),
    stallGaps: int64(r.stall_gaps),
    findings: (r.findings ?? []).map((f) => ({ reason: f.reason, count: int64(f.count), action: f.action })),
    freshHeadlessResume: {
      started: int64(resume.started),
      usefulWorkReached: int64(resume.useful_work_reached),
      completed: int64(resume.completed),
      crashed: int64(resume.crashed),
      superseded: int64(resume.superseded),
      failureReasons: countMap(resume.failure_reasons ?? {}),
    },
  };
}

/** The proto form of the turn-health report. */
export function healthReportMessage(r: HealthReportJson): MessageInitShape<typeof HealthReportSchema> {
  const t = r.totals;
  const c = r.compaction;
  return {
    schema: r.schema,
    sessionsWithTurns: int64(r.sessions_with_turns),
    totals: {
      turns: int64(t.turns),
      toolCalls: int64(t.tool_calls),
      toolCallsPerTurn: t.tool_calls_per_turn,
      zeroToolTurns: int64(t.zero_tool_turns),
      zeroToolRate: t.zero_tool_rate,
      aborted: int64(t.aborted ?? 0),
      superseded: int64(t.superseded ?? 0),
      unterminated: int64(t.unterminated ?? 0),
    },
    zeroToolBreakdown: countMap(r.zero_tool_breakdown),
    compaction: {
      events: int64(c.events),
      budget: int64(c.budget),
      occupancyP50: int64(c.occupancy_p50),
      occupancyP90: int64(c.occupancy_p90),
      nearBudget96k: int64(c.near_budget_96k),
      nearWindow200kPlus: int64(c.near_window_200k_plus),
      prematureLt40k: int64(c.premature_lt40k),
    },
    guardRefusalLoops: r.guard_refusal_loops.map((g) => ({
      session: g.session,
      model: g.model ?? "",
      refusedTurns: int64(g.refused_turns),
      turns: int64(g.turns),
    })),
    turnInflation: r.turn_inflation.map((g) => ({
      session: g.session,
      model: g.model ?? "",
      turns: int64(g.turns),
      toolCalls: int64(g.tool_calls),
      zeroToolTurns: int64(g.zero_tool_turns),
    })),
    flags: [...r.flags],
    scannedFiles: int64(r.scanned_files ?? 0),
    unreadable: int64(r.unreadable ?? 0),
  };
}
