/** Analytics records: named analysis runs, kept in a bounded log with proof markers. */

import type { List } from "immutable";
import { invalidArgument } from "../errors.js";
import { isTimestamp } from "../proof/proof-number.js";

/** One analysis run. */
export interface AnalyticsRecord {
  /** Unique id; "" lets the engine derive one from type, time and generation. */
  readonly id: string;
  /** Free-form analysis kind, e.g. `hotspots`, `cycles`, `path`. */
  readonly queryType: string;
  /** Unix ms of the run; must be > 0. */
  readonly queryTime: number;
  /** Number of results found. */
  readonly resultCount: number;
  /** Result ids (truncated to the configured maximum when stored). */
  readonly results: readonly string[];
  /** Cycles found, for `cycles` runs. */
  readonly cycles: readonly (readonly string[])[];
  /** Path found, for `path` runs. */
  readonly path: readonly string[];
  /** Run time in ms. */
  readonly executionMs: number;
  /** Run parameters. */
  readonly params: Readonly<Record<string, string>>;
}

function checkStrings(list: unknown, field: string): void {
  if (!Array.isArray(list)) throw invalidArgument(field, "must be a list");
  list.forEach((v, i) => {
    if (typeof v !== "string") throw invalidArgument(`${field}[${i}]`, "must be a string");
  });
}

/** Types of the id, lists and params, which the reference's checks take for granted. */
function checkShape(r: AnalyticsRecord, field: string): void {
  if (typeof r.id !== "string") throw invalidArgument(`${field}.id`, "analytics id must be a string");
  checkStrings(r.results, `${field}.results`);
  if (!Array.isArray(r.cycles)) throw invalidArgument(`${field}.cycles`, "must be a list");
  r.cycles.forEach((c, i) => checkStrings(c, `${field}.cycles[${i}]`));
  checkStrings(r.path, `${field}.path`);
  if (r.params === null || typeof r.params !== "object" || Array.isArray(r.params))
    throw invalidArgument(`${field}.params`, "params must be an object");
  for (const [k, v] of Object.entries(r.params)) {
    if (typeof v !== "string") throw invalidArgument(`${field}.params.${k}`, "params values must be strings");
  }
}

/** Checks a record in the reference's order; throws INVALID_ARGUMENT naming the field. */
export function validateAnalyticsRecord(r: AnalyticsRecord, field: string): void {
  if (r === null || typeof r !== "object") throw invalidArgument(field, "analytics record must not be nil");
  if (typeof r.queryType !== "string" || r.queryType === "")
    throw invalidArgument(`${field}.queryType`, "analytics query_type must not be empty");
  if (!isTimestamp(r.queryTime) || r.queryTime === 0) throw invalidArgument(`${field}.queryTime`, "analytics query_time must not be zero");
  if (!Number.isSafeInteger(r.resultCount) || r.resultCount < 0)
    throw invalidArgument(`${field}.resultCount`, "analytics result_count must not be negative");
  if (typeof r.executionMs !== "number" || !(r.executionMs >= 0))
    throw invalidArgument(`${field}.executionMs`, "analytics execution_ms must not be negative");
  checkShape(r, field);
  if (r.queryType === "cycles" && r.resultCount > 0 && r.cycles.length === 0) {
    throw invalidArgument(`${field}.cycles`, "cycles query with results must populate Cycles field");
  }
  if (r.queryType === "path" && r.resultCount > 0 && r.path.length === 0) {
    throw invalidArgument(`${field}.path`, "path query with results must populate Path field");
  }
}

/** True when the run found something (cycles, a path, or a positive count). */
export function hasResults(r: AnalyticsRecord): boolean {
  if (r.queryType === "cycles") return r.cycles.length > 0;
  if (r.queryType === "path") return r.path.length > 0;
  return r.resultCount > 0;
}

/** Proof key marking that a run of `queryType` happened. */
export function analyticsDoneKey(queryType: string): string {
  return `analytics:${queryType}:done`;
}

/** Proof key marking that a run of `queryType` found results. */
export function analyticsFoundKey(queryType: string): string {
  return `analytics:${queryType}:found`;
}

/** A stored copy: results truncated, arrays frozen, the caller's record untouched. */
export function storedRecord(r: AnalyticsRecord, id: string, maxResults: number): AnalyticsRecord {
  return Object.freeze({
    ...r,
    id,
    results: Object.freeze(r.results.slice(0, maxResults)),
    cycles: Object.freeze(r.cycles.map((c) => Object.freeze([...c]))),
    path: Object.freeze([...r.path]),
    params: Object.freeze({ ...r.params }),
  });
}

/** Appends to the bounded log (oldest dropped). */
export function pushAnalytics(log: List<AnalyticsRecord>, r: AnalyticsRecord, max: number): List<AnalyticsRecord> {
  let next = log.push(r);
  while (next.size > max) next = next.shift();
  return next;
}

/** The most recent run of `queryType`, if any. */
export function lastAnalytics(log: List<AnalyticsRecord>, queryType: string): AnalyticsRecord | undefined {
  return log.findLast((r) => r.queryType === queryType);
}
