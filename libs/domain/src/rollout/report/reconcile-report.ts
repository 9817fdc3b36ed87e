import { sortedRecord } from "../corpus/order.js";
import type { CorpusPartial, LifecycleCounts } from "../corpus/types.js";

/** Schema token of the reconcile report. */
export const RECONCILE_SCHEMA = "fak-codex-reconcile/1";

/** Raw start/terminal counts beside the residual left after reconciliation. */
export interface ReconcileRowJson {
  rollouts: number;
  started: number;
  complete: number;
  aborted: number;
  raw_unaccounted: number;
  closed_total: number;
  residual_unaccounted: number;
  raw_unaccounted_pct: number;
  residual_unaccounted_pct: number;
}

/** The reconcile report. */
export interface ReconcileReportJson {
  schema: string;
  root: string;
  scanned: number;
  unreadable?: number;
  totals: ReconcileRowJson;
  by_provider_version: Record<string, ReconcileRowJson>;
}

function pct(part: number, whole: number): number {
  return whole > 0 ? Math.round((10_000 * part) / whole) / 100 : 0;
}

/** One reconcile row from lifecycle counters. */
export function reconcileRow(c: LifecycleCounts): ReconcileRowJson {
  // Raw figures describe written starts; implicit tasks had none, so their closes stay out.
  const implicitClosed = (c.implicit ?? 0) - (c.implicitLive ?? 0);
  const closed = c.complete + c.aborted + c.superseded + c.processDeath - implicitClosed;
  // Raw figures may go negative (duplicate terminals); they are reported, never clamped.
  const raw = c.rawStarted - c.rawComplete - c.rawAborted;
  const residual = c.rawStarted - closed;
  return {
    rollouts: c.rollouts,
    started: c.rawStarted,
    complete: c.rawComplete,
    aborted: c.rawAborted,
    raw_unaccounted: raw,
    closed_total: closed,
    residual_unaccounted: residual,
    raw_unaccounted_pct: pct(raw, c.rawStarted),
    residual_unaccounted_pct: pct(residual, c.rawStarted),
  };
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
  };
}
