import { DEFAULT_TOP_N } from "@crs/domain/rollout";
import { badField, clockRequired } from "../errors.js";
import { DEFAULT_MAX_LINE_BYTES } from "../reader/index.js";
import { defaultCacheDir } from "./partial-cache.js";
import { DEFAULT_CACHE_MAX_BYTES } from "./prune-packs.js";
import type { ScanOptions } from "./types.js";

/** Scan options checked, with defaults filled in. */
export interface CheckedOptions {
  readonly root: string;
  readonly now: number;
  readonly freshMs: number;
  readonly cwd: string;
  readonly limit: number;
  /** Threads asked for; null: one per core, as the work justifies. */
  readonly workers: number | null;
  readonly cacheDir: string | null;
  readonly cacheMaxBytes: number;
  readonly maxLineBytes: number;
  readonly topN: number;
}

function count(value: number | undefined, field: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) throw badField(field, `must be an integer of at least ${min}`);
  return value;
}

/** Checks scan options; a bad one is INVALID_ARGUMENT (or CLOCK_REQUIRED) naming its field. */
export function checkOptions(options: ScanOptions): CheckedOptions {
  if (typeof options.root !== "string" || options.root.trim() === "") throw badField("root", "must name a directory");
  if (typeof options.now !== "number" || !Number.isFinite(options.now) || options.now <= 0) throw clockRequired("now");
  if (
    options.cacheDir !== undefined &&
    options.cacheDir !== false &&
    (typeof options.cacheDir !== "string" || options.cacheDir.trim() === "")
  ) {
    throw badField("cacheDir", "must name a directory or be false");
  }
  return {
    root: options.root,
    now: options.now,
    freshMs: count(options.freshMs, "freshMs", 0, 0),
    cwd: options.cwd?.trim() ?? "",
    limit: count(options.limit, "limit", 0, 0),
    workers: options.workers === undefined ? null : count(options.workers, "workers", 1, 1),
    cacheDir: options.cacheDir === false ? null : (options.cacheDir ?? defaultCacheDir()),
    cacheMaxBytes: count(options.cacheMaxBytes, "cacheMaxBytes", DEFAULT_CACHE_MAX_BYTES, 0),
    maxLineBytes: count(options.maxLineBytes, "maxLineBytes", DEFAULT_MAX_LINE_BYTES, 1),
    topN: count(options.topN, "topN", DEFAULT_TOP_N, 1),
  };
}
