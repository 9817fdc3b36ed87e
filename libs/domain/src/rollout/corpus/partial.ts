import { foldRecords } from "../analytics/analyze.js";
import type { FoldedRollout, RolloutAnalytics } from "../analytics/types.js";
import type { DecodedRollout, RolloutCensus } from "../decode/collect.js";
import { errorsOf } from "./census.js";
import { providerVersion } from "../decode/meta.js";
import { sessionHealth, type SessionHealth } from "../health/session.js";
import type { FoldReport } from "../lifecycle/types.js";
import { DEFAULT_TOP_N, INFLATION_MIN_TURNS, INFLATION_RATIO, OUTLIER_CONTRIBUTORS, REFUSAL_LOOP_MIN } from "../vocabulary.js";
import { emptyCounts, emptyPartial } from "./empty.js";
import { sortedRecord, sortedSample, tallyKeys } from "./order.js";
import { compareOutliers } from "./ranking.js";
import type { AnalyticsPartial, CorpusPartial, LifecycleCounts, Outlier, ToolAgg } from "./types.js";

/** Inputs of {@link partialOfRollout}. */
export interface PartialInput {
  readonly rollout: DecodedRollout;
  /** Whether the rollout may still be written; decided by the caller. */
  readonly fresh: boolean;
  /** Name for health rows (the file's base name); defaults to the rollout id. */
  readonly session?: string;
  /** Outlier candidates kept for ranking. */
  readonly outlierKeep?: number;
}

/** Lifecycle records as written, before the fold pairs them. */
export interface RawLifecycle {
  readonly started: number;
  readonly complete: number;
  readonly aborted: number;
}

/** Lifecycle counters of one folded rollout. */
export function countsOf(report: FoldReport, raw: RawLifecycle = { started: 0, complete: 0, aborted: 0 }): LifecycleCounts {
  const c = emptyCounts();
  c.rawStarted = raw.started;
  c.rawComplete = raw.complete;
  c.rawAborted = raw.aborted;
  c.rollouts = 1;
  c.starts = report.tasks.length;
  c.orphans = report.orphans.length;
  c.reused = report.reused.length;
  c.multiplyTerminated = report.multiplyTerminated.length;
  for (const t of report.tasks) {
    if (t.outcome === "process_death") c.processDeath += 1;
    else c[t.outcome] += 1;
    // A repaired supersede was still unmatched when the start was first closed.
    if (t.provenance === "synthesized" || t.repaired) c.unmatchedBefore += 1;
    if (t.errorClass !== null) c.errored += 1;
    if (!t.implicit) continue;
    c.implicit += 1;
    if (t.outcome === "live") c.implicitLive += 1;
    else if (t.outcome === "process_death") c.implicitProcessDeath += 1;
    else if (t.outcome === "aborted") c.implicitAborted += 1;
  }
  c.rolloutsWithGap = report.tasks.some((t) => t.outcome === "superseded" || t.repaired) ? 1 : 0;
  c.completedWithTrailingAbort = report.completedWithTrailingAbort ? 1 : 0;
  c.substantiveCompleted = report.substantiveCompleted ? 1 : 0;
  return c;
}

function isResumeCohort(a: RolloutAnalytics): boolean {
  return a.meta.originator.toLowerCase() === "codex_exec" && a.meta.source.toLowerCase() === "exec" && a.goalContinuations > 0;
}

function resumeOf(a: RolloutAnalytics, p: AnalyticsPartial): void {
  if (!isResumeCohort(a)) return;
  const r = p.resume;
  const reasons: string[] = [];
  for (const t of a.tasks) {
    r.started += 1;
    const useful = (t.classes.ok ?? 0) + (t.classes.expected_negative ?? 0) > 0;
    if (useful) r.usefulWorkReached += 1;
    if (t.outcome === "complete") r.completed += 1;
    else if (t.outcome === "superseded") r.superseded += 1;
    else if ((t.outcome === "aborted" || t.outcome === "process_death") && !t.trailingEmptyAbort) {
      r.crashed += 1;
      reasons.push(`${useful ? "after" : "before"}_useful_work:${t.outcome}`);
    }
  }
  r.failureReasons = tallyKeys(reasons);
}

function analyticsOf(a: RolloutAnalytics, keep: number, session: string, p: AnalyticsPartial): void {
  if (a.tasks.length === 0 && a.calls === 0) return;
  p.sessions = 1;
  p.tasks = a.tasks.length;
  p.toolCalls = a.calls;
  p.outcomes = tallyKeys(a.tasks.map((t) => t.outcome));
  p.classes = { ...a.callTotals.classes };
  p.reasons = { ...a.callTotals.reasons };
  p.byTool = sortedRecord(Object.entries(a.callTotals.byTool).map(([tool, t]): [string, ToolAgg] => [tool, { ...t }]));
  const durations: number[] = [];
  const ttfts: number[] = [];
  const outliers: Outlier[] = [];
  for (const t of a.tasks) {
    const ms = t.recordedMs !== null && t.recordedMs > 0 ? t.recordedMs : t.wallMs;
    if (t.outcome === "complete") {
      p.completed += 1;
      if (ms > 0) durations.push(ms / 1000);
    }
    if (t.ttftMs >= 0) ttfts.push(t.ttftMs / 1000);
    if (ms > 0) {
      outliers.push({
        // A rollout without session_meta is named by its file, so the row can still be traced.
        session: a.meta.rolloutId || session,
        turnId: t.turnId,
        outcome: t.outcome,
        durationS: ms / 1000,
        ttftS: t.ttftMs >= 0 ? t.ttftMs / 1000 : null,
        idleS: t.idleMs / 1000,
        top: t.critical.slice(0, OUTLIER_CONTRIBUTORS),
      });
    }
  }
  p.durations = sortedSample(durations);
  p.ttfts = sortedSample(ttfts);
  p.outliers = outliers.sort(compareOutliers).slice(0, keep);
  p.timeoutKills = a.behavior.timeoutKills;
  p.sleepPolls = a.behavior.sleepPolls;
  p.stallGaps = a.behavior.stallGaps;
  resumeOf(a, p);
}

function healthOf(h: SessionHealth, p: CorpusPartial["health"]): void {
  p.scannedFiles = 1;
  if (h.turns === 0) return;
  const zero = Object.values(h.zeroTool).reduce((x, y) => x + y, 0);
  Object.assign<CorpusPartial["health"], Partial<CorpusPartial["health"]>>(p, {
    sessionsWithTurns: 1,
    turns: h.turns,
    toolCalls: h.toolCalls,
    aborted: h.aborted,
    superseded: h.superseded,
    unterminated: h.unterminated,
    zeroTool: { ...h.zeroTool },
    occupancies: sortedSample(h.compactions),
  });
  const row = {
    session: h.session,
    model: h.model,
    turns: h.turns,
    toolCalls: h.toolCalls,
    zeroToolTurns: zero,
    refusedTurns: h.zeroTool.guard_refused,
  };
  if (row.refusedTurns >= REFUSAL_LOOP_MIN) p.refusalLoops = [row];
  if (h.turns >= INFLATION_MIN_TURNS && zero / h.turns >= INFLATION_RATIO) p.inflation = [row];
}

/** Inputs of {@link partialOfFold}. */
export interface FoldPartialInput {
  readonly folded: FoldedRollout;
  readonly census: RolloutCensus;
  /** Name for health rows (the file's base name); defaults to the rollout id. */
  readonly session?: string;
  /** Outlier candidates kept for ranking. */
  readonly outlierKeep?: number;
}

/** The partial of one folded rollout: its lifecycle, analytics, health, error and usage contributions. */
export function partialOfFold(input: FoldPartialInput): CorpusPartial {
  const keep = input.outlierKeep ?? DEFAULT_TOP_N;
  const p = emptyPartial(keep);
  const { folded } = input;
  const { analytics } = folded;
  const report = analytics.lifecycle;
  if (report.tasks.length > 0 || report.orphans.length > 0) {
    const counts = countsOf(report, folded.raw);
    p.lifecycle = { scanned: 1, totals: counts, byProviderVersion: { [providerVersion(analytics.meta)]: { ...counts } } };
  }
  const session = input.session ?? analytics.meta.rolloutId;
  analyticsOf(analytics, keep, session, p.analytics);
  healthOf(sessionHealth(session, folded), p.health);
  p.errors = errorsOf(input.census, folded.errors);
  p.postTool = folded.postTool;
  p.usage = folded.usage.result(session);
  return p;
}

/** The partial of one decoded rollout: its records pushed through the fold, then summarised. */
export function partialOfRollout(input: PartialInput): CorpusPartial {
  const { rollout } = input;
  const folded = foldRecords({ meta: rollout.meta, records: rollout.records, fresh: input.fresh });
  return partialOfFold({ folded, census: rollout, session: input.session, outlierKeep: input.outlierKeep });
}
