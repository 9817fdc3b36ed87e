import { percentiles, type Percentiles } from "../corpus/percentiles.js";
import { sortedRecord } from "../corpus/order.js";
import type { CorpusPartial } from "../corpus/types.js";

/** Schema token of the post-tool report. */
export const POST_TOOL_SCHEMA = "fak-codex-posttool/1";

/** Result-to-next-model-record gaps across a corpus (milliseconds). */
export interface PostToolReportJson {
  schema: string;
  root: string;
  spans: number;
  attribution: Record<string, number>;
  by_context_band: Record<string, Percentiles>;
  by_ordinal_bucket: Record<string, Percentiles>;
}

/** Builds the post-tool report from a (merged) partial. */
export function postToolReport(partial: CorpusPartial, options: { readonly root: string }): PostToolReportJson {
  const p = partial.postTool;
  return {
    schema: POST_TOOL_SCHEMA,
    root: options.root,
    spans: p.spans,
    attribution: { ...p.attribution },
    by_context_band: sortedRecord(Object.entries(p.byBand).map(([k, v]) => [k, percentiles(v)])),
    by_ordinal_bucket: sortedRecord(Object.entries(p.byBucket).map(([k, v]) => [k, percentiles(v)])),
  };
}
