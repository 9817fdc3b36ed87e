import type { CorpusPartial, LifecycleCounts } from "../corpus/types.js";
import { sortedRecord } from "../corpus/order.js";

/** Lifecycle counters as the reference writes them (zero optional fields omitted). */
export interface CountsJson {
  rollouts: number;
  starts: number;
  unmatched_before: number;
  rollouts_with_gap: number;
  superseded: number;
  process_death: number;
  live: number;
  complete: number;
  aborted: number;
  completed_with_trailing_abort?: number;
  substantive_completed?: number;
  unclassified_after: number;
  orphans?: number;
  reused?: number;
  multiply_terminated?: number;
  /** Tasks opened without a start (also in `starts` and the outcome counts). */
  implicit?: number;
  /** Implicit tasks left `live` or `process_death` at the end of their rollout. */
  implicit_unterminated?: number;
  /** Tasks ended by an error event (also in `aborted`). */
  errored?: number;
}

/** The lifecycle corpus report. */
export interface LifecycleReportJson {
  root: string;
  scanned: number;
  unreadable?: number;
  totals: CountsJson;
  by_provider_version: Record<string, CountsJson>;
  all_starts_typed: boolean;
}

function omitZero(v: number): number | undefined {
  return v === 0 ? undefined : v;
}

/** Lifecycle counters in the reference's JSON shape. */
export function countsJson(c: LifecycleCounts): CountsJson {
  const out: CountsJson = {
    rollouts: c.rollouts,
    starts: c.starts,
    unmatched_before: c.unmatchedBefore,
    rollouts_with_gap: c.rolloutsWithGap,
    superseded: c.superseded,
    process_death: c.processDeath,
    live: c.live,
    complete: c.complete,
    aborted: c.aborted,
    completed_with_trailing_abort: omitZero(c.completedWithTrailingAbort),
    substantive_completed: omitZero(c.substantiveCompleted),
    unclassified_after: c.unclassifiedAfter,
    orphans: omitZero(c.orphans),
    reused: omitZero(c.reused),
    multiply_terminated: omitZero(c.multiplyTerminated),
    // Partials written before these counters existed read as zero.
    implicit: omitZero(c.implicit ?? 0),
    implicit_unterminated: omitZero((c.implicitLive ?? 0) + (c.implicitProcessDeath ?? 0)),
    errored: omitZero(c.errored ?? 0),
  };
  return JSON.parse(JSON.stringify(out)) as CountsJson;
}

/** Builds the lifecycle report from a (merged) partial. */
export function lifecycleReport(partial: CorpusPartial, options: { readonly root: string }): LifecycleReportJson {
  const { lifecycle } = partial;
  return {
    root: options.root,
    scanned: lifecycle.scanned,
    ...(partial.unreadable > 0 ? { unreadable: partial.unreadable } : {}),
    totals: countsJson(lifecycle.totals),
    by_provider_version: sortedRecord(Object.entries(lifecycle.byProviderVersion).map(([k, c]) => [k, countsJson(c)])),
    all_starts_typed: lifecycle.totals.unclassifiedAfter === 0,
  };
}
