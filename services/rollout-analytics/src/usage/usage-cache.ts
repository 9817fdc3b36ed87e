import { join, resolve } from "node:path";
import { USAGE_VERSION } from "@crs/domain/rollout";
import { EntryFiles, userCacheDir, type PruneOutcome } from "../scan/index.js";
import type { RolloutFile } from "../walk/index.js";
import type { FileUsage } from "./usage-file.js";

/** Bound of the usage cache on disk: an entry is about a kilobyte, so this holds some 60,000 files. */
export const USAGE_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** Version of the usage cache entry layout; bumped when it changes, so old entries are recomputed. */
export const USAGE_CACHE_FORMAT = 1;

/**
 * Where per-file usage is kept: `usage` inside the given cache directory (the scan keeps its own
 * entries there), by default the user cache beside the scan's, `$XDG_CACHE_HOME` or `~/.cache`.
 */
export function usageCacheDir(cacheDir: string | undefined): string {
  return cacheDir !== undefined ? join(cacheDir, "usage") : userCacheDir("usage");
}

// An entry holds token figures, model names, the session name and the recorded cwd; never a body.
interface UsageEntry {
  readonly format: number;
  readonly usageVersion: number;
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly maxLineBytes: number;
  readonly file: FileUsage;
}

function matches(entry: unknown, file: RolloutFile, maxLineBytes: number, path: string): entry is UsageEntry {
  if (typeof entry !== "object" || entry === null) return false;
  const e = entry as Partial<UsageEntry>;
  return (
    e.format === USAGE_CACHE_FORMAT &&
    e.usageVersion === USAGE_VERSION &&
    e.path === path &&
    e.size === file.size &&
    e.mtimeMs === file.mtimeMs &&
    e.maxLineBytes === maxLineBytes &&
    typeof e.file === "object" &&
    e.file !== null &&
    typeof e.file.cwd === "string" &&
    typeof e.file.bytes === "number" &&
    e.file.usage?.version === USAGE_VERSION
  );
}

/**
 * Per-file usage on disk, one entry per rollout path. An entry is reused only when the file's
 * size and mtime, the line limit and both format versions match; an unreadable or corrupt entry
 * is a miss. Entries are written to a temporary name and renamed, so a crash leaves either the
 * old entry or the new one.
 */
export class UsageCache {
  readonly #files: EntryFiles;
  readonly #maxLineBytes: number;

  constructor(dir: string, maxLineBytes: number) {
    this.#files = new EntryFiles(dir);
    this.#maxLineBytes = maxLineBytes;
  }

  /** The cached usage of a file, or null when there is none that still applies. */
  async get(file: RolloutFile): Promise<FileUsage | null> {
    const path = resolve(file.path);
    const entry = await this.#files.read(path);
    return matches(entry, file, this.#maxLineBytes, path) ? entry.file : null;
  }

  /** Stores the usage of a file; a failure to write only costs the reuse. */
  put(file: RolloutFile, usage: FileUsage): Promise<boolean> {
    const path = resolve(file.path);
    const entry: UsageEntry = {
      format: USAGE_CACHE_FORMAT,
      usageVersion: USAGE_VERSION,
      path,
      size: file.size,
      mtimeMs: file.mtimeMs,
      maxLineBytes: this.#maxLineBytes,
      file: usage,
    };
    return this.#files.write(path, JSON.stringify(entry));
  }

  /** Removes entries of files that no longer exist and, over the bound, the least recently written. */
  prune(present: readonly string[]): Promise<PruneOutcome> {
    return this.#files.prune(present, USAGE_CACHE_MAX_BYTES);
  }
}
