import { compareText } from "./order.js";
import type { AnalyticsPartial, HealthSessionRow, Outlier } from "./types.js";

/** Outliers: longest first, then session and turn id, then the row itself, so ties rank the same everywhere. */
export function compareOutliers(a: Outlier, b: Outlier): number {
  // Two rollouts may share an id (copies, forks) and implicit ids repeat per rollout, so the
  // keys alone are not unique; the full row makes the order total.
  return (
    b.durationS - a.durationS ||
    compareText(a.session, b.session) ||
    compareText(a.turnId, b.turnId) ||
    compareText(JSON.stringify(a), JSON.stringify(b))
  );
}

// Session names are file names and may repeat (a file sent again after it grew), so the
// remaining fields close the order.
function compareRest(a: HealthSessionRow, b: HealthSessionRow): number {
  return compareText(a.model, b.model) || b.toolCalls - a.toolCalls || b.zeroToolTurns - a.zeroToolTurns || b.refusedTurns - a.refusedTurns;
}

/** Refusal loops: most refused turns first, then turns, session and the rest of the row. */
export function compareRefusals(a: HealthSessionRow, b: HealthSessionRow): number {
  return b.refusedTurns - a.refusedTurns || b.turns - a.turns || compareText(a.session, b.session) || compareRest(a, b);
}

/** Turn inflation: most zero-tool turns first, then turns, session and the rest of the row. */
export function compareInflation(a: HealthSessionRow, b: HealthSessionRow): number {
  return b.zeroToolTurns - a.zeroToolTurns || b.turns - a.turns || compareText(a.session, b.session) || compareRest(a, b);
}

/** How two ranked lists are merged: their order and how many rows survive (all when null). */
export interface Ranking<T> {
  readonly compare: (x: T, y: T) => number;
  readonly keep: number | null;
}

/** Merges two ranked lists under a ranking. */
export function mergeRanked<T>(a: readonly T[], b: readonly T[], ranking: Ranking<T>): T[] {
  const all = [...a, ...b].sort(ranking.compare);
  return ranking.keep === null ? all : all.slice(0, ranking.keep);
}

/**
 * A partial's outliers cut to `keep`, or null when it was cut shorter and may lack some of them.
 * A list shorter than its own cut holds every candidate, so it serves any cut.
 */
export function outliersCutTo(a: AnalyticsPartial, keep: number): Outlier[] | null {
  if (a.outlierKeep < keep && a.outliers.length >= a.outlierKeep) return null;
  return a.outliers.slice(0, keep);
}
