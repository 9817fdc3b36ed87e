import {
  analyticsReport,
  errorClassReport,
  healthReport,
  lifecycleReport,
  postToolReport,
  reconcileReport,
  type CorpusPartial,
} from "@crs/domain/rollout";

/** The corpus report kinds `scan` can print. */
export type ReportKind = "lifecycle" | "analytics" | "health" | "reconcile" | "errors" | "posttool";

/** Every corpus report kind, in the order `all` prints them. */
export const REPORT_KINDS: readonly ReportKind[] = ["lifecycle", "analytics", "health", "reconcile", "errors", "posttool"];

/** Report JSON by kind, as the domain computes it (full precision). */
export type CorpusReports = Partial<Record<ReportKind, unknown>>;

/** Computes the asked reports from a merged partial. */
export function corpusReports(partial: CorpusPartial, kinds: readonly ReportKind[], options: { root: string; top: number }): CorpusReports {
  const out: CorpusReports = {};
  for (const kind of kinds) {
    switch (kind) {
      case "lifecycle":
        out.lifecycle = lifecycleReport(partial, { root: options.root });
        break;
      case "analytics":
        out.analytics = analyticsReport(partial, { root: options.root, topN: options.top });
        break;
      case "health":
        out.health = healthReport(partial, { top: options.top });
        break;
      case "reconcile":
        out.reconcile = reconcileReport(partial, { root: options.root });
        break;
      case "errors":
        out.errors = errorClassReport(partial, { root: options.root });
        break;
      case "posttool":
        out.posttool = postToolReport(partial, { root: options.root });
        break;
    }
  }
  return out;
}
