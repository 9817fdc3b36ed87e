import { sortedRecord } from "../corpus/order.js";
import type { CorpusPartial, LifecycleCounts } from "../corpus/types.js";

/** Schema token of the reconcile report. */
export const RECONCILE_SCHEMA = "fak-codex-reconcile/1";

/**
 * One reconcile row: raw event counts as written beside the folded outcomes of the same rollouts,
 * in the reference's field names. Outcome columns count tasks with a written start; implicit
 * turns had none, so they are only in `implicit` and never close a written start.
 */
export interface ReconcileRowJson {
  rollouts: number;
  task_started: number;
  task_complete: number;
  turn_aborted: number;
  raw_unaccounted: number;
  /** Unrounded percentage of `task_started`; 0 when nothing started. */
  raw_unaccounted_pct: number;
  complete: number;
  aborted: number;
  superseded: number;
  process_death: number;
  live: number;
  completed_with_trailing_abort?: number;
  substantive_completed?: number;
  closed_total: number;
  residual_unaccounted: number;
  /** Unrounded percentage of `task_started`; 0 when nothing started. */
  residual_pct: number;
  unclassified_after: number;
  orphans?: number;
  reused?: number;
  multiply_terminated?: number;
  /** Implicit turns, outside every column above; omitted when zero. */
  implicit?: number;
}

/** The reconcile report. */
export interface ReconcileReportJson {
  schema: string;
  root: string;
  scanned: number;
  unreadable?: number;
  totals: ReconcileRowJson;
  by_provider_version: Record<string, ReconcileRowJson>;
  all_starts_typed: boolean;
}

// Full precision, as the reference writes its float64: rounding is for tables, not for JSON.
function pct(part: number, whole: number): number {
  return whole > 0 ? (100 * part) / whole : 0;
}

function omitZero(v: number): number | undefined {
  return v === 0 ? undefined : v;
}

/** Folded outcomes of the tasks that had a written start. */
function writtenOutcomes(c: LifecycleCounts): Pick<ReconcileRowJson, "complete" | "aborted" | "superseded" | "process_death" | "live"> {
  // Partials of older versions carry no implicit split; they read as zero.
  const live = c.implicitLive ?? 0;
  const dead = c.implicitProcessDeath ?? 0;
  const aborted = c.implicitAborted ?? 0;
  const complete = (c.implicit ?? 0) - live - dead - aborted;
  return {
    complete: c.complete - complete,
    aborted: c.aborted - aborted,
    superseded: c.superseded,
    process_death: c.processDeath - dead,
    live: c.live - live,
  };
}

/** One reconcile row from lifecycle counters. */
export function reconcileRow(c: LifecycleCounts): ReconcileRowJson {
  const folded = writtenOutcomes(c);
  const closed = folded.complete + folded.aborted + folded.superseded + folded.process_death;
  // Raw figures may go negative (duplicate terminals); they are reported, never clamped.
  const raw = c.rawStarted - c.rawComplete - c.rawAborted;
  const residual = c.rawStarted - closed;
  const row: ReconcileRowJson = {
    rollouts: c.rollouts,
    task_started: c.rawStarted,
    task_complete: c.rawComplete,
    turn_aborted: c.rawAborted,
    raw_unaccounted: raw,
    raw_unaccounted_pct: pct(raw, c.rawStarted),
    ...folded,
    completed_with_trailing_abort: omitZero(c.completedWithTrailingAbort),
    substantive_completed: omitZero(c.substantiveCompleted),
    closed_total: closed,
    residual_unaccounted: residual,
    residual_pct: pct(residual, c.rawStarted),
    unclassified_after: c.unclassifiedAfter,
    orphans: omitZero(c.orphans),
    reused: omitZero(c.reused),
    multiply_terminated: omitZero(c.multiplyTerminated),
    implicit: omitZero(c.implicit ?? 0),
  };
  return JSON.parse(JSON.stringify(row)) as ReconcileRowJson;
}

/** Builds the reconcile report from a (merged) partial. */
export function reconcileReport(partial: CorpusPartial, options: { readonly root: string }): ReconcileReportJson {
  const l = partial.lifecycle;
  return {
    schema: RECONCILE_SCHEMA,
    root: options.root,
    scanned: l.scanned,
    ...(partial.unreadable > 0 ? { unreadable: partial.unreadable } : {}),
    totals: reconcileRow(l.totals),
    by_provider_version: sortedRecord(Object.entries(l.byProviderVersion).map(([k, c]) => [k, reconcileRow(c)])),
    all_starts_typed: l.totals.unclassifiedAfter === 0,
  };
}
