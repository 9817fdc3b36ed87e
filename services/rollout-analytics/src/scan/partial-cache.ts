import { resolve } from "node:path";
import { PARTIAL_VERSION } from "@crs/domain/rollout";
import type { RolloutFile } from "../walk/index.js";
import { EntryFiles, userCacheDir } from "./entry-files.js";
import type { PruneOutcome } from "./prune-cache.js";
import type { FileScan } from "./scan-file.js";

/** Version of the cache entry layout; bumped when it changes, so old entries are recomputed. */
export const CACHE_FORMAT = 1;

/** Where scans keep per-file partials by default: `$XDG_CACHE_HOME` or `~/.cache`. */
export function defaultCacheDir(): string {
  return userCacheDir("scan");
}

/** What an entry must match to be reused: the file as stat'ed and every input of its partial. */
export interface CacheKey {
  readonly file: RolloutFile;
  readonly fresh: boolean;
  readonly maxLineBytes: number;
}

// An entry holds a partial (classes, counts, hashes, paths) and the recorded cwd; never a body.
interface CacheEntry {
  readonly format: number;
  readonly partialVersion: number;
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly fresh: boolean;
  readonly maxLineBytes: number;
  readonly scan: FileScan;
}

function matches(entry: unknown, key: CacheKey, path: string): entry is CacheEntry {
  if (typeof entry !== "object" || entry === null) return false;
  const e = entry as Partial<CacheEntry>;
  return (
    e.format === CACHE_FORMAT &&
    e.partialVersion === PARTIAL_VERSION &&
    e.path === path &&
    e.size === key.file.size &&
    e.mtimeMs === key.file.mtimeMs &&
    e.fresh === key.fresh &&
    e.maxLineBytes === key.maxLineBytes &&
    typeof e.scan === "object" &&
    e.scan !== null &&
    typeof e.scan.cwd === "string" &&
    typeof e.scan.bytes === "number" &&
    e.scan.partial?.version === PARTIAL_VERSION
  );
}

/**
 * Per-file partials on disk, one entry per rollout path. An entry is reused only when the
 * file's size and mtime, its freshness, the line limit and both format versions all match;
 * an unreadable or corrupt entry is a miss. Entries are written to a temporary name and
 * renamed, so a crash leaves either the old entry or the new one.
 */
export class PartialCache {
  readonly #files: EntryFiles;

  constructor(dir: string) {
    this.#files = new EntryFiles(dir);
  }

  /** The cached scan of a file, or null when there is none that still applies. */
  async get(key: CacheKey): Promise<FileScan | null> {
    const path = resolve(key.file.path);
    const entry = await this.#files.read(path);
    return matches(entry, key, path) ? entry.scan : null;
  }

  // The entry's text around the scan's JSON, so a scan serialised once (by a worker, to post it)
  // is not serialised again.
  #entryText(path: string, key: CacheKey, scanJson: string): string {
    const { size, mtimeMs } = key.file;
    const header = {
      format: CACHE_FORMAT,
      partialVersion: PARTIAL_VERSION,
      path,
      size,
      mtimeMs,
      fresh: key.fresh,
      maxLineBytes: key.maxLineBytes,
    };
    return `${JSON.stringify(header).slice(0, -1)},"scan":${scanJson}}`;
  }

  /** Stores the scan of a file; a failure to write only costs the reuse. */
  put(key: CacheKey, scan: FileScan): Promise<boolean> {
    const path = resolve(key.file.path);
    return this.#files.write(path, this.#entryText(path, key, JSON.stringify(scan)));
  }

  /** {@link put} with blocking writes and the scan as JSON text, for a scan worker thread. */
  putSync(key: CacheKey, scanJson: string): boolean {
    const path = resolve(key.file.path);
    return this.#files.writeSync(path, this.#entryText(path, key, scanJson));
  }

  /** Removes entries of files that no longer exist and, over `maxBytes`, the least recently written. */
  prune(present: readonly string[], maxBytes: number): Promise<PruneOutcome> {
    return this.#files.prune(present, maxBytes);
  }
}
