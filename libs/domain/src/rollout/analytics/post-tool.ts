import type { RolloutRecord } from "../decode/record.js";
import { STALL_THRESHOLD_MS } from "../vocabulary.js";
import type { LiveCall } from "./calls.js";

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

interface Waiting {
  readonly ordinal: number;
  readonly tsMs: number;
  readonly call: LiveCall | undefined;
  readonly band: ContextBand;
  compaction: boolean;
}

/**
 * Post-tool spans as records stream in: a timed result waits for the model's next timed record,
 * and a result with no later model record (the tail) has none. Only results not yet followed by
 * a model record are held.
 */
export class PostToolFold {
  #tokens = 0;
  #ordinal = 0;
  #waiting: Waiting[] = [];
  readonly #emit: (span: PostToolSpan) => void;

  /** `emit` hears each span once, in file order of the results. */
  constructor(emit: (span: PostToolSpan) => void) {
    this.#emit = emit;
  }

  /** Takes the next record; `answered` is the call a tool output answered, if any. */
  push(r: RolloutRecord, answered: LiveCall | undefined): void {
    if (MODEL_EMITTED.has(r.kind) && r.tsMs !== null) this.#close(r.tsMs);
    if (r.kind === "compacted") for (const w of this.#waiting) w.compaction = true;
    if (r.kind === "token_count" && r.inputTokens > 0) this.#tokens = r.inputTokens;
    if (r.kind !== "tool_output" || r.tsMs === null) return;
    this.#ordinal += 1;
    this.#waiting.push({ ordinal: this.#ordinal, tsMs: r.tsMs, call: answered, band: contextBand(this.#tokens), compaction: false });
  }

  #close(end: number): void {
    for (const w of this.#waiting) {
      const gapMs = Math.max(0, end - w.tsMs);
      const toolMs = w.call?.row?.spanMs ?? 0;
      this.#emit({
        ordinal: w.ordinal,
        tool: w.call?.tool ?? "",
        toolMs,
        gapMs,
        attribution: attribute(toolMs, gapMs, w.compaction),
        band: w.band,
        bucket: ordinalBucket(w.ordinal),
      });
    }
    this.#waiting = [];
  }
}
