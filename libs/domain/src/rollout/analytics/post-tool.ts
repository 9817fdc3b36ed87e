import type { RolloutRecord } from "../decode/record.js";
import { STALL_THRESHOLD_MS } from "../vocabulary.js";
import type { CallRow } from "./calls.js";

/** What the time between a tool result and the model's next record is attributed to. */
export type PostToolAttribution = "tool_slow" | "stall_capped" | "compaction_in_gap" | "model_reasoning";

/** Context occupancy band at the time of a tool result. */
export type ContextBand = "unobserved" | "lt10k" | "10k_25k" | "25k_50k" | "50k_100k" | "gte100k";

/** Position band of a tool result within its rollout. */
export type OrdinalBucket = "1_20" | "21_50" | "51_100" | "101_200" | "gte201";

/** The span from one tool result to the model's next record. */
export interface PostToolSpan {
  /** 1-based position among timestamped results. */
  readonly ordinal: number;
  readonly tool: string;
  readonly toolMs: number;
  readonly gapMs: number;
  readonly attribution: PostToolAttribution;
  readonly band: ContextBand;
  readonly bucket: OrdinalBucket;
}

const MODEL_EMITTED = new Set(["tool_call", "token_count", "task_complete", "turn_aborted", "agent_message", "model_output"]);

/** Band of a context occupancy reading (0 means none seen yet). */
export function contextBand(tokens: number): ContextBand {
  if (tokens <= 0) return "unobserved";
  if (tokens < 10_000) return "lt10k";
  if (tokens < 25_000) return "10k_25k";
  if (tokens < 50_000) return "25k_50k";
  return tokens < 100_000 ? "50k_100k" : "gte100k";
}

/** Bucket of a 1-based result ordinal. */
export function ordinalBucket(ordinal: number): OrdinalBucket {
  if (ordinal <= 20) return "1_20";
  if (ordinal <= 50) return "21_50";
  if (ordinal <= 100) return "51_100";
  return ordinal <= 200 ? "101_200" : "gte201";
}

function attribute(toolMs: number, gapMs: number, compaction: boolean): PostToolAttribution {
  if (toolMs > 0 && toolMs >= gapMs) return "tool_slow";
  if (gapMs > STALL_THRESHOLD_MS) return "stall_capped";
  return compaction ? "compaction_in_gap" : "model_reasoning";
}

/** Post-tool spans of a rollout; a result with no later model record (the tail) has none. */
export function postToolSpans(records: readonly RolloutRecord[], calls: readonly CallRow[]): PostToolSpan[] {
  const callOfOutput = new Map(calls.filter((c) => c.outputIndex !== null).map((c) => [c.outputIndex ?? -1, c]));
  // One backward pass finds each record's next model record, so the walk stays linear.
  const nextModel = new Int32Array(records.length + 1).fill(-1);
  const compactionsFrom = new Int32Array(records.length + 1);
  for (let i = records.length - 1; i >= 0; i -= 1) {
    const r = records[i];
    const isModel = r !== undefined && MODEL_EMITTED.has(r.kind) && r.tsMs !== null;
    nextModel[i] = isModel ? i : (nextModel[i + 1] ?? -1);
    compactionsFrom[i] = (compactionsFrom[i + 1] ?? 0) + (r?.kind === "compacted" ? 1 : 0);
  }
  const out: PostToolSpan[] = [];
  let tokens = 0;
  let ordinal = 0;
  records.forEach((r, i) => {
    if (r.kind === "token_count" && r.inputTokens > 0) tokens = r.inputTokens;
    if (r.kind !== "tool_output" || r.tsMs === null) return;
    ordinal += 1;
    const endAt = nextModel[i + 1] ?? -1;
    const end = records[endAt]?.tsMs;
    if (endAt < 0 || end === undefined || end === null) return;
    const compaction = (compactionsFrom[i + 1] ?? 0) - (compactionsFrom[endAt] ?? 0) > 0;
    const call = callOfOutput.get(i);
    const gapMs = Math.max(0, end - r.tsMs);
    const toolMs = call?.spanMs ?? 0;
    out.push({
      ordinal,
      tool: call?.tool ?? "",
      toolMs,
      gapMs,
      attribution: attribute(toolMs, gapMs, compaction),
      band: contextBand(tokens),
      bucket: ordinalBucket(ordinal),
    });
  });
  return out;
}
