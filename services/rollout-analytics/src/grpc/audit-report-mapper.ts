import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  postToolSpansMs,
  type CorpusPartial,
  type ErrorClassReportJson,
  type PostToolReportJson,
  type PostToolSpansMs,
  type ReconcileReportJson,
  type ReconcileRowJson,
} from "@crs/domain/rollout";
import type {
  ErrorClassReportSchema,
  PostToolReportSchema,
  ReconcileCountsSchema,
  ReconcileReportSchema,
} from "@crs/contracts/gen/crs/analytics/v1/report_pb";
import { percentilesMessage } from "./corpus-report-mapper.js";
import { countMap, int64 } from "./proto-values.js";

/** The proto form of one reconcile row; omitted JSON fields are zero, deltas keep their sign. */
export function reconcileCountsMessage(c: ReconcileRowJson): MessageInitShape<typeof ReconcileCountsSchema> {
  return {
    rollouts: int64(c.rollouts),
    taskStarted: int64(c.task_started),
    taskComplete: int64(c.task_complete),
    turnAborted: int64(c.turn_aborted),
    rawUnaccounted: int64(c.raw_unaccounted),
    rawUnaccountedPct: c.raw_unaccounted_pct,
    complete: int64(c.complete),
    aborted: int64(c.aborted),
    superseded: int64(c.superseded),
    processDeath: int64(c.process_death),
    live: int64(c.live),
    completedWithTrailingAbort: int64(c.completed_with_trailing_abort ?? 0),
    substantiveCompleted: int64(c.substantive_completed ?? 0),
    closedTotal: int64(c.closed_total),
    residualUnaccounted: int64(c.residual_unaccounted),
    residualPct: c.residual_pct,
    unclassifiedAfter: int64(c.unclassified_after),
    orphans: int64(c.orphans ?? 0),
    reused: int64(c.reused ?? 0),
    multiplyTerminated: int64(c.multiply_terminated ?? 0),
    implicit: int64(c.implicit ?? 0),
  };
}

/** The proto form of the reconcile report. */
export function reconcileReportMessage(r: ReconcileReportJson): MessageInitShape<typeof ReconcileReportSchema> {
  return {
    schema: r.schema,
    root: r.root,
    scanned: int64(r.scanned),
    unreadable: int64(r.unreadable ?? 0),
    totals: reconcileCountsMessage(r.totals),
    byProviderVersion: Object.fromEntries(Object.entries(r.by_provider_version).map(([key, c]) => [key, reconcileCountsMessage(c)])),
    allStartsTyped: r.all_starts_typed,
  };
}

/** The proto form of the error-class report. */
export function errorClassReportMessage(r: ErrorClassReportJson): MessageInitShape<typeof ErrorClassReportSchema> {
  return {
    schema: r.schema,
    root: r.root,
    sessions: int64(r.sessions),
    unreadable: int64(r.unreadable ?? 0),
    payloadTypes: countMap(r.payload_types),
    unknownPayloadTypes: countMap(r.unknown_payload_types),
    unknownPayloadTotal: int64(r.unknown_payload_total),
    rolloutsWithUnknown: int64(r.rollouts_with_unknown),
    tornTailRollouts: int64(r.torn_tail_rollouts),
    turnAborted: int64(r.turn_aborted),
    abortClasses: countMap(r.abort_classes),
    taskComplete: int64(r.task_complete),
    terminalsWithClass: int64(r.terminals_with_class),
    providerErrorClasses: countMap(r.provider_error_classes),
    turnErrorClasses: countMap(r.turn_error_classes ?? {}),
  };
}

/**
 * The proto form of the post-tool report: the JSON report's counts, and its percentiles in
 * milliseconds (taken from the partial) per band and bucket; the reference's shape travels as the
 * report JSON.
 */
export function postToolReportMessage(r: PostToolReportJson, partial: CorpusPartial): MessageInitShape<typeof PostToolReportSchema> {
  const ms = postToolSpansMs(partial);
  const each = <T>(rows: Record<string, PostToolSpansMs>, f: (row: PostToolSpansMs) => T): Record<string, T> =>
    Object.fromEntries(Object.entries(rows).map(([key, row]) => [key, f(row)]));
  return {
    schema: r.schema,
    root: r.root,
    spans: int64(r.spans),
    attribution: countMap(r.attribution),
    byContextBand: each(ms.byBand, (row) => percentilesMessage(row.gap)),
    byOrdinalBucket: each(ms.byBucket, (row) => percentilesMessage(row.gap)),
    sessions: int64(r.sessions),
    unreadable: int64(r.unreadable ?? 0),
    tailSkipped: int64(r.tail_skipped),
    stallSpans: int64(r.stall_spans),
    compactionInGap: int64(r.compaction_in_gap),
    over30s: int64(ms.all.over30s),
    gap: percentilesMessage(ms.all.gap),
    tool: percentilesMessage(ms.all.tool),
    over30sByContextBand: each(ms.byBand, (row) => int64(row.over30s)),
    over30sByOrdinalBucket: each(ms.byBucket, (row) => int64(row.over30s)),
    toolByContextBand: each(ms.byBand, (row) => percentilesMessage(row.tool)),
    toolByOrdinalBucket: each(ms.byBucket, (row) => percentilesMessage(row.tool)),
  };
}
