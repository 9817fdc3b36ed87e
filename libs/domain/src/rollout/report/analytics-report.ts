import { percentiles, type Percentiles } from "../corpus/percentiles.js";
import { compareText, sortedRecord } from "../corpus/order.js";
import type { CorpusPartial, Outlier, ResumeCohort, ToolAgg } from "../corpus/types.js";
import type { Contributor } from "../critical-path.js";
import { countsAsFailure, DEFAULT_TOP_N, FINDING_FLOOR, type Outcome, type ToolClass } from "../vocabulary.js";

/** One ranked class/reason bucket. */
export interface ReasonRowJson {
  class: ToolClass;
  reason: string;
  count: number;
}

/** One actionable corpus finding. */
export interface FindingJson {
  reason: string;
  count: number;
  action: string;
}

/** One ranked long task. */
export interface TaskOutlierJson {
  session: string;
  turn_id: string;
  outcome: Outcome;
  duration_s: number;
  ttft_s: number | null;
  idle_s: number;
  top?: Contributor[];
}

/** The analytics corpus report. */
export interface AnalyticsReportJson {
  root: string;
  sessions: number;
  unreadable?: number;
  tasks: number;
  completed: number;
  tool_calls: number;
  duration: Percentiles;
  ttft: Percentiles;
  outcomes: Partial<Record<Outcome, number>>;
  classes: Partial<Record<ToolClass, number>>;
  reasons?: ReasonRowJson[];
  by_tool?: Record<string, ToolAgg>;
  top_tasks?: TaskOutlierJson[];
  timeout_kills: number;
  sleep_polls: number;
  stall_gaps: number;
  findings?: FindingJson[];
  fresh_headless_resume: {
    started: number;
    useful_work_reached: number;
    completed: number;
    crashed: number;
    superseded: number;
    failure_reasons?: Record<string, number>;
  };
}

/** Reason rows ranked by count, then reason, then class. */
export function rankReasons(reasons: Readonly<Record<string, number>>): ReasonRowJson[] {
  return Object.entries(reasons)
    .map(([key, count]) => {
      const at = key.indexOf(":");
      return { class: key.slice(0, at) as ToolClass, reason: key.slice(at + 1), count };
    })
    .sort((a, b) => b.count - a.count || compareText(a.reason, b.reason) || compareText(a.class, b.class));
}

/** Findings from ranked reasons and behaviour totals, in the reference's order. */
export function findings(rows: readonly ReasonRowJson[], stallGaps: number, sleepPolls: number): FindingJson[] {
  const out: FindingJson[] = [];
  for (const r of rows) {
    if (!countsAsFailure(r.class) || r.count < FINDING_FLOOR) continue;
    out.push({
      reason: `repeated_failure:${r.reason}`,
      count: r.count,
      action: `recurring ${r.reason} tool outcome (${r.count} calls) \u2014 dos unstick / issue candidate`,
    });
  }
  if (stallGaps >= FINDING_FLOOR) {
    out.push({
      reason: "repeated_idle_gap",
      count: stallGaps,
      action: `${stallGaps} idle gaps over the stall threshold \u2014 check harness stalls / human-wait boundaries`,
    });
  }
  if (sleepPolls >= FINDING_FLOOR) {
    out.push({
      reason: "foreground_polling",
      count: sleepPolls,
      action: `${sleepPolls} foreground sleep polls \u2014 replace with event-driven waits`,
    });
  }
  return out;
}

function outlierJson(o: Outlier): TaskOutlierJson {
  return {
    session: o.session,
    turn_id: o.turnId,
    outcome: o.outcome,
    duration_s: o.durationS,
    ttft_s: o.ttftS,
    idle_s: o.idleS,
    ...(o.top.length > 0 ? { top: [...o.top] } : {}),
  };
}

function resumeJson(r: ResumeCohort): AnalyticsReportJson["fresh_headless_resume"] {
  return {
    started: r.started,
    useful_work_reached: r.usefulWorkReached,
    completed: r.completed,
    crashed: r.crashed,
    superseded: r.superseded,
    ...(Object.keys(r.failureReasons).length > 0 ? { failure_reasons: sortedRecord(Object.entries(r.failureReasons)) } : {}),
  };
}

/** Builds the analytics report from a (merged) partial; `topN` ≤ 0 means the default. */
export function analyticsReport(partial: CorpusPartial, options: { readonly root: string; readonly topN?: number }): AnalyticsReportJson {
  const a = partial.analytics;
  const topN = options.topN !== undefined && options.topN > 0 ? options.topN : DEFAULT_TOP_N;
  const reasons = rankReasons(a.reasons);
  const found = findings(reasons, a.stallGaps, a.sleepPolls);
  const top = a.outliers.slice(0, topN).map(outlierJson);
  return {
    root: options.root,
    sessions: a.sessions,
    ...(partial.unreadable > 0 ? { unreadable: partial.unreadable } : {}),
    tasks: a.tasks,
    completed: a.completed,
    tool_calls: a.toolCalls,
    duration: percentiles(a.durations),
    ttft: percentiles(a.ttfts),
    outcomes: a.outcomes,
    classes: a.classes,
    ...(reasons.length > 0 ? { reasons } : {}),
    ...(Object.keys(a.byTool).length > 0 ? { by_tool: a.byTool } : {}),
    ...(top.length > 0 ? { top_tasks: top } : {}),
    timeout_kills: a.timeoutKills,
    sleep_polls: a.sleepPolls,
    stall_gaps: a.stallGaps,
    ...(found.length > 0 ? { findings: found } : {}),
    fresh_headless_resume: resumeJson(a.resume),
  };
}

/** Calls classed failure or timeout across the corpus. */
export function hardFailureCount(report: Pick<AnalyticsReportJson, "classes">): number {
  return (report.classes.failure ?? 0) + (report.classes.timeout ?? 0);
}
