import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  analyticsReport,
  DEFAULT_TOP_N,
  errorClassReport,
  healthReport,
  lifecycleReport,
  postToolReport,
  reconcileReport,
  reportJson,
  type CorpusPartial,
} from "@crs/domain/rollout";
import { ScanKind, type ScanSchema } from "@crs/contracts/gen/crs/analytics/v1/scan_pb";
import { errorClassReportMessage, postToolReportMessage, reconcileReportMessage } from "./audit-report-mapper.js";
import { analyticsCorpusMessage, corpusReportMessage, healthReportMessage } from "./corpus-report-mapper.js";
import { badField } from "../errors.js";

/** What a scan's report is built from besides its merged partial. */
export interface ScanReportOptions {
  /** The scanned root, as the request named it. */
  readonly root: string;
  /** Rows kept in ranked lists; 0 means 10. */
  readonly topN: number;
}

/** The typed report of a scan and its reference-compatible JSON, both from one merged partial. */
export interface ScanReport {
  readonly result: MessageInitShape<typeof ScanSchema>["result"];
  readonly reportJson: string;
}

/** Builds a scan's report of `kind` from its merged partial. */
export function scanReportOf(kind: ScanKind, partial: CorpusPartial, options: ScanReportOptions): ScanReport {
  const { root, topN } = options;
  switch (kind) {
    case ScanKind.LIFECYCLE: {
      const r = lifecycleReport(partial, { root });
      return { result: { case: "lifecycle", value: corpusReportMessage(r) }, reportJson: reportJson(r, 2) };
    }
    case ScanKind.ANALYTICS: {
      const r = analyticsReport(partial, { root, topN });
      return { result: { case: "analytics", value: analyticsCorpusMessage(r) }, reportJson: reportJson(r, 2) };
    }
    case ScanKind.HEALTH: {
      // The health fold reads 0 as "no cut"; scans promise 10.
      const r = healthReport(partial, { top: topN > 0 ? topN : DEFAULT_TOP_N });
      return { result: { case: "health", value: healthReportMessage(r) }, reportJson: reportJson(r, 2) };
    }
    case ScanKind.RECONCILE: {
      const r = reconcileReport(partial, { root });
      return { result: { case: "reconcile", value: reconcileReportMessage(r) }, reportJson: reportJson(r, 2) };
    }
    case ScanKind.ERROR_CLASS: {
      const r = errorClassReport(partial, { root });
      return { result: { case: "errorClass", value: errorClassReportMessage(r) }, reportJson: reportJson(r, 2) };
    }
    case ScanKind.POST_TOOL: {
      const r = postToolReport(partial, { root });
      return { result: { case: "postTool", value: postToolReportMessage(r, partial) }, reportJson: reportJson(r, 2) };
    }
    default:
      throw badField("kind", "must name a report kind");
  }
}
