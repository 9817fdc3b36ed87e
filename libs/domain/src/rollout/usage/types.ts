import type { TokenFigures } from "./figures.js";

/** Version stamp of the usage partial, checked before merging. */
export const USAGE_VERSION = 3;

/** Token usage of one session, by model. */
export interface SessionUsage {
  /** Time of the session's first and last counted reply, Unix ms (null when undated). */
  readonly firstMs: number | null;
  readonly lastMs: number | null;
  readonly byModel: Readonly<Record<string, TokenFigures>>;
}

/**
 * Mergeable token usage of any number of rollouts: figures by UTC day and model, and by session.
 * Plain JSON, merged by summing, so per-file usage can be cached and combined in any order.
 */
export interface UsagePartial {
  readonly version: typeof USAGE_VERSION;
  /** `YYYY-MM-DD` (UTC; `undated` for replies without a time) → model → figures. */
  readonly byDay: Readonly<Record<string, Readonly<Record<string, TokenFigures>>>>;
  /** Session name (the file's base name) → its usage. */
  readonly bySession: Readonly<Record<string, SessionUsage>>;
  /** `token_count` events skipped because they repeated the previous cumulative totals. */
  readonly repeats: number;
  /** `token_count` events skipped as the parent's history copied into a forked or spawned rollout. */
  readonly replayed: number;
}

/** Model name used when no `turn_context` named one before a reply. */
export const UNKNOWN_MODEL = "unknown";

/** Day key of replies without a timestamp. */
export const UNDATED = "undated";
