import type { RolloutRecord } from "../decode/record.js";
import { STALL_THRESHOLD_MS } from "../vocabulary.js";
import type { LiveCall } from "./calls.js";

/** What the time between a tool result and the model's next record is attributed to. */
export type PostToolAttribution = "tool_slow" | "stall_capped" | "compaction_in_gap" | "model_reasoning";

/** Context occupancy band of the request that took in a tool result. */
export type ContextBand = "unobserved" | "lt10k" | "10k_25k" | "25k_50k" | "50k_100k" | "gte100k";

/** Position band of a tool result within its rollout. */
export type OrdinalBucket = "1_20" | "21_50" | "51_100" | "101_200" | "gte201";

/** Context bands in report order, smallest context first. */
export const CONTEXT_BANDS: readonly ContextBand[] = ["unobserved", "lt10k", "10k_25k", "25k_50k", "50k_100k", "gte100k"];

/** Ordinal buckets in report order, earliest results first. */
export const ORDINAL_BUCKETS: readonly OrdinalBucket[] = ["1_20", "21_50", "51_100", "101_200", "gte201"];

/** The span from one tool result to the model's next record. */
export interface PostToolSpan {
  /** 1-based position among timestamped results. */
  readonly ordinal: number;
  readonly tool: string;
  readonly toolMs: number;
  readonly gapMs: number;
  readonly attribution: PostToolAttribution;
  /** Compactions written inside the gap. */
  readonly compactions: number;
  /** Band of the first input-token reading at or after the record that ends the gap. */
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

function attribute(toolMs: number, gapMs: number, compactions: number): PostToolAttribution {
  if (toolMs > 0 && toolMs >= gapMs) return "tool_slow";
  if (gapMs > STALL_THRESHOLD_MS) return "stall_capped";
  return compactions > 0 ? "compaction_in_gap" : "model_reasoning";
}

interface Waiting {
  readonly ordinal: number;
  readonly tsMs: number;
  readonly call: LiveCall | undefined;
  compactions: number;
}

/** A span before its band is known. */
export type UnbandedSpan = Omit<PostToolSpan, "band">;

/** Hears the spans of one rollout as the fold finds them, in file order of their results. */
export interface PostToolSink {
  /** A span closed by the model's next record; its band comes later, through `banded`. */
  closed(span: UnbandedSpan): void;
  /** Every span closed since the last call (at least one) has `band`. */
  banded(band: ContextBand): void;
}

/**
 * Post-tool spans as records stream in: a timed result waits for the model's next timed record,
 * and a result with no later model record (the tail) has none. A closed span then waits for the
 * first input-token reading at or after the record that closed it: that is the request which took
 * the result in, so its size is the span's context band (none before the end: `unobserved`).
 * Only results not yet followed by a model record are held; a closed span goes to the sink at
 * once and its band follows, so a rollout without readings holds no span here.
 */
export class PostToolFold {
  #ordinal = 0;
  #waiting: Waiting[] = [];
  #unbanded = 0;
  readonly #sink: PostToolSink;

  /** `sink` hears each span once, and then its band. */
  constructor(sink: PostToolSink) {
    this.#sink = sink;
  }

  /** Takes the next record; `answered` is the call a tool output answered, if any. */
  push(r: RolloutRecord, answered: LiveCall | undefined): void {
    if (MODEL_EMITTED.has(r.kind) && r.tsMs !== null) this.#close(r.tsMs);
    // Closed first: the record that ends a gap may itself be the reading that bands it.
    if (r.kind === "token_count" && r.inputTokens > 0) this.#band(contextBand(r.inputTokens));
    if (r.kind === "compacted") for (const w of this.#waiting) w.compactions += 1;
    if (r.kind !== "tool_output" || r.tsMs === null) return;
    this.#ordinal += 1;
    this.#waiting.push({ ordinal: this.#ordinal, tsMs: r.tsMs, call: answered, compactions: 0 });
  }

  /** Ends the rollout: spans still without a reading are unobserved; returns the tail results skipped. */
  finish(): number {
    this.#band("unobserved");
    const tail = this.#waiting.length;
    this.#waiting = [];
    return tail;
  }

  #close(end: number): void {
    for (const w of this.#waiting) {
      const gapMs = Math.max(0, end - w.tsMs);
      const toolMs = w.call?.row?.spanMs ?? 0;
      this.#sink.closed({
        ordinal: w.ordinal,
        tool: w.call?.tool ?? "",
        toolMs,
        gapMs,
        attribution: attribute(toolMs, gapMs, w.compactions),
        compactions: w.compactions,
        bucket: ordinalBucket(w.ordinal),
      });
      this.#unbanded += 1;
    }
    this.#waiting = [];
  }

  #band(band: ContextBand): void {
    if (this.#unbanded === 0) return;
    this.#unbanded = 0;
    this.#sink.banded(band);
  }
}
