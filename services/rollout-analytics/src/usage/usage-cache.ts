import { join, resolve } from "node:path";
import { USAGE_VERSION } from "@crs/domain/rollout";
import { CODE_ID, EntryPacks, userCacheDir, type CacheNotWritten, type PruneOutcome } from "../scan/index.js";
import type { RolloutFile } from "../walk/index.js";
import type { FileUsage } from "./usage-file.js";

/** Bound of the usage cache on disk: an entry is about a kilobyte, so this holds some 60,000 files. */
export const USAGE_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** Version of the usage cache entry layout; bumped when it changes, so old entries are recomputed. */
export const USAGE_CACHE_FORMAT = 2;

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
  /** {@link CODE_ID} of the code that made it. */
  readonly codeId: string;
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
    e.codeId === CODE_ID &&
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

/** A file's usage to store. */
export interface UsageWrite {
  readonly file: RolloutFile;
  readonly usage: FileUsage;
}

/**
 * Per-file usage on disk, kept in packs of entries (one pack per batch of files read together),
 * so a warm read opens a few files instead of one per rollout. An entry is reused only when the
 * file's size and mtime, the line limit, both format versions and the code that made it match; an unreadable or corrupt
 * entry is a miss.
 */
export class UsageCache {
  readonly #packs: EntryPacks;
  readonly #maxLineBytes: number;

  constructor(dir: string, maxLineBytes: number) {
    this.#packs = new EntryPacks(dir);
    this.#maxLineBytes = maxLineBytes;
  }

  /** Hands `onHit` the cached usage of each file that has one that still applies, with the file's index. */
  reuse(files: readonly RolloutFile[], onHit: (index: number, usage: FileUsage) => void, signal?: AbortSignal): Promise<void> {
    const paths = files.map((file) => resolve(file.path));
    return this.#packs.reuse(
      paths,
      (entry, i) => (matches(entry, files[i] as RolloutFile, this.#maxLineBytes, paths[i] as string) ? entry.file : undefined),
      onHit,
      signal,
    );
  }

  /** Why the directory cannot take entries, or null when it can. */
  unwritable(): Promise<CacheNotWritten | null> {
    return this.#packs.unwritable();
  }

  /** Stores the usage of some files as one pack; its name, or null (a failure to write only costs the reuse). */
  put(writes: readonly UsageWrite[]): Promise<string | null> {
    return this.#packs.write(
      writes.map(({ file, usage }) => {
        const path = resolve(file.path);
        const entry: UsageEntry = {
          format: USAGE_CACHE_FORMAT,
          usageVersion: USAGE_VERSION,
          codeId: CODE_ID,
          path,
          size: file.size,
          mtimeMs: file.mtimeMs,
          maxLineBytes: this.#maxLineBytes,
          file: usage,
        };
        return { path, text: JSON.stringify(entry) };
      }),
    );
  }

  /**
   * Drops entries of files that no longer exist and stale entries of those read again and, over
   * the bound, the least recently written packs.
   */
  prune(present: readonly string[]): Promise<PruneOutcome> {
    return this.#packs.prune(
      present.map((p) => resolve(p)),
      USAGE_CACHE_MAX_BYTES,
    );
  }
}
