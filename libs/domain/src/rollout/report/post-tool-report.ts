import { CONTEXT_BANDS, ORDINAL_BUCKETS } from "../analytics/post-tool.js";
import { sortedRecord } from "../corpus/order.js";
import { percentiles, type Percentiles } from "../corpus/percentiles.js";
import { allCells, cellsOf, type SortedRuns } from "../corpus/post-tool-cells.js";
import type { CorpusPartial, PostToolPartial } from "../corpus/types.js";
import { STALL_THRESHOLD_MS } from "../vocabulary.js";

/** Schema token of the post-tool report. */
export const POST_TOOL_SCHEMA = "fak-codex-posttool/1";

// A gap longer than this is counted in `over30s`, whatever it is attributed to.
const OVER_MS = 30_000;

/** One context-band or ordinal-bucket row: gap percentiles and the tool-time median, in seconds. */
export interface PostToolBucketJson {
  key: string;
  n: number;
  p50: number;
  p90: number;
  p95: number;
  /** Gaps over 30 s. */
  over30s: number;
  /** Median tool time of the same spans: slow tools apart from slow models. */
  tool_p50: number;
}

/** Result-to-next-model-record gaps across a corpus, in the reference's names (seconds). */
export interface PostToolReportJson {
  schema: string;
  root: string;
  /** Rollouts with at least one span or skipped tail result. */
  sessions: number;
  unreadable?: number;
  spans: number;
  /** Results no model record followed, so without a span. */
  tail_skipped: number;
  /** Gap percentiles over every span. */
  gap: Percentiles;
  /** Tool-time percentiles over every span (0 for a result whose call was not found). */
  tool_ms: Percentiles;
  /** Share of spans whose gap is over 30 s. */
  over30s_share: number;
  /** Spans whose gap is over the 300 s stall threshold. */
  stall_spans: number;
  /** Spans with a compaction inside the gap. */
  compaction_in_gap: number;
  /** Rows in band order, non-empty only. */
  by_band: PostToolBucketJson[];
  /** Rows in ordinal order, non-empty only. */
  by_ordinal: PostToolBucketJson[];
  /** Spans per attribution token (not in the reference's report). */
  attribution: Record<string, number>;
}

function seconds(p: Percentiles): Percentiles {
  return { n: p.n, p50: p.p50 / 1000, p90: p.p90 / 1000, p95: p.p95 / 1000, p99: p.p99 / 1000, max: p.max / 1000 };
}

/** Gap and tool-time percentiles (ms) of a set of spans, with how many gaps are over 30 s. */
export interface PostToolSpansMs {
  gap: Percentiles;
  tool: Percentiles;
  over30s: number;
}

function spansMs(gaps: SortedRuns, tools: SortedRuns): PostToolSpansMs {
  return { gap: percentiles(gaps), tool: percentiles(tools), over30s: gaps.over(OVER_MS) };
}

// The spans (ms) of every key with spans, in `keys` order; `side` picks bands (0) or buckets (1) of the cells.
function keyed(keys: readonly string[], p: PostToolPartial, side: 0 | 1): [string, PostToolSpansMs][] {
  const out: [string, PostToolSpansMs][] = [];
  for (const key of keys) {
    const g = cellsOf(p.gapByCell, side, key);
    if (g.length > 0) out.push([key, spansMs(g, cellsOf(p.toolByCell, side, key))]);
  }
  return out;
}

// One row per key with spans, in `keys` order; `side` picks bands (0) or buckets (1) of the cells.
function rows(keys: readonly string[], p: PostToolPartial, side: 0 | 1): PostToolBucketJson[] {
  return keyed(keys, p, side).map(([key, ms]) => {
    const q = seconds(ms.gap);
    return { key, n: q.n, p50: q.p50, p90: q.p90, p95: q.p95, over30s: ms.over30s, tool_p50: seconds(ms.tool).p50 };
  });
}

/** Builds the post-tool report from a (merged) partial. */
export function postToolReport(partial: CorpusPartial, options: { readonly root: string }): PostToolReportJson {
  const p = partial.postTool;
  const gaps = allCells(p.gapByCell);
  const all = spansMs(gaps, allCells(p.toolByCell));
  return {
    schema: POST_TOOL_SCHEMA,
    root: options.root,
    sessions: p.sessions,
    ...(partial.unreadable > 0 ? { unreadable: partial.unreadable } : {}),
    spans: p.spans,
    tail_skipped: p.tailSkipped,
    gap: seconds(all.gap),
    tool_ms: seconds(all.tool),
    over30s_share: p.spans > 0 ? all.over30s / p.spans : 0,
    stall_spans: gaps.over(STALL_THRESHOLD_MS),
    compaction_in_gap: p.compactionInGap,
    by_band: rows(CONTEXT_BANDS, p, 0),
    by_ordinal: rows(ORDINAL_BUCKETS, p, 1),
    attribution: { ...p.attribution },
  };
}

/** Every span, and the spans per context band and per ordinal bucket, in milliseconds, as the gRPC report carries them. */
export function postToolSpansMs(partial: CorpusPartial): {
  all: PostToolSpansMs;
  byBand: Record<string, PostToolSpansMs>;
  byBucket: Record<string, PostToolSpansMs>;
} {
  const p = partial.postTool;
  return {
    all: spansMs(allCells(p.gapByCell), allCells(p.toolByCell)),
    byBand: sortedRecord(keyed(CONTEXT_BANDS, p, 0)),
    byBucket: sortedRecord(keyed(ORDINAL_BUCKETS, p, 1)),
  };
}
