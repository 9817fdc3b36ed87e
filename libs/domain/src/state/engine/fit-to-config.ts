/**
 * Fitting content into limits: when a configuration shrinks a bounded index below what it
 * holds, the index drops entries by the same rule it follows when a new entry arrives (oldest
 * steps, history entries, change records and analytics runs first; least recently used
 * clauses; the last results of an analytics run). The similarity index has no eviction rule
 * (a full index refuses new pairs), so a limit below its pair count is refused instead.
 */

import type { AnalyticsRecord } from "../analytics/analytics-record.js";
import { evictToCapacity } from "../clauses/clause-store.js";
import type { StateConfig } from "../config.js";
import { StateError } from "../errors.js";
import { trimHistory } from "../history/history-index.js";
import type { ProjectState } from "../project-state.js";
import { trimSteps } from "../steps/step-store.js";

/** A state without its generation, as transitions build it. */
type Draft = Omit<ProjectState, "generation">;

/** CAPACITY_BELOW_CONTENT when `config` caps similarity pairs below what `state` stores. */
export function checkSimilarityFits(state: Pick<ProjectState, "similarity">, config: StateConfig): void {
  if (state.similarity.pairCount > config.maxSimilarityPairs) {
    throw new StateError(
      "CAPACITY_BELOW_CONTENT",
      `max similarity pairs ${config.maxSimilarityPairs} is below the ${state.similarity.pairCount} pairs stored; similarity pairs are never evicted`,
      { field: "maxSimilarityPairs" },
    );
  }
}

function trimAnalytics(state: Draft, config: StateConfig): Draft["analytics"] {
  let log = state.analytics;
  while (log.size > config.maxAnalyticsRecords) log = log.shift();
  const max = config.maxResultsPerRecord;
  if (!log.some((r) => r.results.length > max)) return log;
  return log.map((r: AnalyticsRecord) =>
    r.results.length > max ? Object.freeze({ ...r, results: Object.freeze(r.results.slice(0, max)) }) : r,
  );
}

/**
 * `state` with `config` as its limits and every bounded index cut to them; `evictedClauses`
 * lists the clauses dropped (their modification generations move). Unchanged indexes keep
 * their identity.
 */
export function fitToConfig(state: Draft, config: StateConfig): { state: Draft; evictedClauses: string[] } {
  const clauses = evictToCapacity(state.clauses, config.maxClauses);
  let deltaHistory = state.deltaHistory;
  while (deltaHistory.size > config.maxDeltaRecords) deltaHistory = deltaHistory.shift();
  return {
    state: {
      ...state,
      config,
      steps: trimSteps(state.steps, config.maxStepsPerSession),
      clauses: clauses.evicted.length === 0 ? state.clauses : clauses.store,
      history: trimHistory(state.history, config.maxHistoryEntries),
      deltaHistory,
      analytics: trimAnalytics(state, config),
    },
    evictedClauses: clauses.evicted,
  };
}
