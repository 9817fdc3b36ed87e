import { mergeUsage } from "../usage/merge.js";
import { RolloutError } from "../errors.js";
import { emptyPartial } from "./empty.js";
import { mergeRecords, mergeSorted, sumCounts } from "./order.js";
import { compareInflation, compareOutliers, compareRefusals, mergeRanked } from "./ranking.js";
import {
  PARTIAL_VERSION,
  type AnalyticsPartial,
  type CorpusPartial,
  type HealthPartial,
  type LifecycleCounts,
  type ResumeCohort,
  type ToolAgg,
} from "./types.js";

function addNumbers<T extends object>(a: T, b: T): T {
  const out = { ...a } as Record<string, number>;
  for (const [k, v] of Object.entries(b) as [string, number][]) out[k] = (out[k] ?? 0) + v;
  return out as T;
}

function mergeByKey<V>(a: Record<string, V>, b: Record<string, V>, add: (x: V, y: V) => V): Record<string, V> {
  return mergeRecords(a, b, { both: add });
}

function mergeResume(a: ResumeCohort, b: ResumeCohort): ResumeCohort {
  const { failureReasons: fa, ...ra } = a;
  const { failureReasons: fb, ...rb } = b;
  return { ...addNumbers(ra, rb), failureReasons: sumCounts(fa, fb) as Record<string, number> };
}

function mergeAnalytics(a: AnalyticsPartial, b: AnalyticsPartial): AnalyticsPartial {
  // Keeping the smaller cut stays exact: the top k of a union is inside the top k of each side.
  const keep = Math.min(a.outlierKeep, b.outlierKeep);
  return {
    sessions: a.sessions + b.sessions,
    tasks: a.tasks + b.tasks,
    completed: a.completed + b.completed,
    toolCalls: a.toolCalls + b.toolCalls,
    durations: mergeSorted(a.durations, b.durations),
    ttfts: mergeSorted(a.ttfts, b.ttfts),
    outcomes: sumCounts(a.outcomes, b.outcomes),
    classes: sumCounts(a.classes, b.classes),
    reasons: sumCounts(a.reasons, b.reasons) as Record<string, number>,
    byTool: mergeByKey<ToolAgg>(a.byTool, b.byTool, addNumbers),
    outliers: mergeRanked(a.outliers, b.outliers, { compare: compareOutliers, keep }),
    outlierKeep: keep,
    timeoutKills: a.timeoutKills + b.timeoutKills,
    sleepPolls: a.sleepPolls + b.sleepPolls,
    stallGaps: a.stallGaps + b.stallGaps,
    resume: mergeResume(a.resume, b.resume),
  };
}

function mergeHealth(a: HealthPartial, b: HealthPartial): HealthPartial {
  return {
    scannedFiles: a.scannedFiles + b.scannedFiles,
    sessionsWithTurns: a.sessionsWithTurns + b.sessionsWithTurns,
    turns: a.turns + b.turns,
    toolCalls: a.toolCalls + b.toolCalls,
    aborted: a.aborted + b.aborted,
    superseded: a.superseded + b.superseded,
    unterminated: a.unterminated + b.unterminated,
    zeroTool: addNumbers(a.zeroTool, b.zeroTool),
    occupancies: mergeSorted(a.occupancies, b.occupancies),
    refusalLoops: mergeRanked(a.refusalLoops, b.refusalLoops, { compare: compareRefusals, keep: null }),
    inflation: mergeRanked(a.inflation, b.inflation, { compare: compareInflation, keep: null }),
  };
}

function checkVersion(p: CorpusPartial, field: string): void {
  if (p.version !== PARTIAL_VERSION) {
    throw new RolloutError("PARTIAL_VERSION_MISMATCH", `${field} has partial version ${String(p.version)}, want ${PARTIAL_VERSION}`, {
      field,
    });
  }
}

/** Merges two partials; associative and commutative, with {@link emptyPartial} as identity. */
export function mergePartials(a: CorpusPartial, b: CorpusPartial): CorpusPartial {
  checkVersion(a, "left");
  checkVersion(b, "right");
  return {
    version: PARTIAL_VERSION,
    unreadable: a.unreadable + b.unreadable,
    outOfScope: a.outOfScope + b.outOfScope,
    lifecycle: {
      scanned: a.lifecycle.scanned + b.lifecycle.scanned,
      totals: addNumbers(a.lifecycle.totals, b.lifecycle.totals),
      byProviderVersion: mergeByKey<LifecycleCounts>(a.lifecycle.byProviderVersion, b.lifecycle.byProviderVersion, addNumbers),
    },
    analytics: mergeAnalytics(a.analytics, b.analytics),
    health: mergeHealth(a.health, b.health),
    errors: {
      sessions: a.errors.sessions + b.errors.sessions,
      tornTails: a.errors.tornTails + b.errors.tornTails,
      rolloutsWithUnknown: a.errors.rolloutsWithUnknown + b.errors.rolloutsWithUnknown,
      turnAborted: a.errors.turnAborted + b.errors.turnAborted,
      taskComplete: a.errors.taskComplete + b.errors.taskComplete,
      terminalsWithClass: a.errors.terminalsWithClass + b.errors.terminalsWithClass,
      payloadTypes: sumCounts(a.errors.payloadTypes, b.errors.payloadTypes) as Record<string, number>,
      unknownPayloadTypes: sumCounts(a.errors.unknownPayloadTypes, b.errors.unknownPayloadTypes) as Record<string, number>,
      abortClasses: sumCounts(a.errors.abortClasses, b.errors.abortClasses) as Record<string, number>,
      statusClasses: sumCounts(a.errors.statusClasses, b.errors.statusClasses) as Record<string, number>,
      // Partials written before error classes were counted carry none.
      turnErrorClasses: sumCounts(a.errors.turnErrorClasses ?? {}, b.errors.turnErrorClasses ?? {}) as Record<string, number>,
      oversizedLines: a.errors.oversizedLines + b.errors.oversizedLines,
    },
    postTool: {
      sessions: a.postTool.sessions + b.postTool.sessions,
      spans: a.postTool.spans + b.postTool.spans,
      tailSkipped: a.postTool.tailSkipped + b.postTool.tailSkipped,
      compactionInGap: a.postTool.compactionInGap + b.postTool.compactionInGap,
      attribution: sumCounts(a.postTool.attribution, b.postTool.attribution) as Record<string, number>,
      gapByCell: mergeByKey(a.postTool.gapByCell, b.postTool.gapByCell, mergeSorted),
      toolByCell: mergeByKey(a.postTool.toolByCell, b.postTool.toolByCell, mergeSorted),
    },
    usage: mergeUsage(a.usage, b.usage),
  };
}

/**
 * Merges any number of partials (empty input gives the empty partial). They are merged in
 * pairs, level by level, so each sample is copied O(log n) times instead of once per partial.
 */
export function mergeAll(partials: Iterable<CorpusPartial>, outlierKeep?: number): CorpusPartial {
  // Without an explicit cut, the first partial's own cut stands (merging keeps the smaller).
  let level: CorpusPartial[] = outlierKeep === undefined ? [] : [emptyPartial(outlierKeep)];
  for (const p of partials) {
    checkVersion(p, "partials");
    level.push(p);
  }
  if (level.length === 0) return emptyPartial();
  while (level.length > 1) {
    const next: CorpusPartial[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const a = level[i];
      const b = level[i + 1];
      if (a !== undefined) next.push(b === undefined ? a : mergePartials(a, b));
    }
    level = next;
  }
  return level[0] ?? emptyPartial();
}
