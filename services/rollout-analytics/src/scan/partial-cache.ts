import { resolve } from "node:path";
import { outliersCutTo, PARTIAL_VERSION } from "@crs/domain/rollout";
import type { RolloutFile } from "../walk/index.js";
import { userCacheDir } from "./cache-dir.js";
import { CODE_ID } from "./code-id.js";
import { EntryPacks, type PackEntry } from "./entry-packs.js";
import type { PruneOutcome } from "./prune-packs.js";
import type { FileScan } from "./scan-file.js";
import type { CacheNotWritten } from "./types.js";

/** Version of the cache entry layout; bumped when it changes, so old entries are recomputed. */
export const CACHE_FORMAT = 2;

/** Where scans keep per-file partials by default: `$XDG_CACHE_HOME` or `~/.cache`. */
export function defaultCacheDir(): string {
  return userCacheDir("scan");
}

/** What an entry must match to be reused: the file as stat'ed and every input of its partial. */
export interface CacheKey {
  readonly file: RolloutFile;
  readonly fresh: boolean;
  readonly maxLineBytes: number;
  /** Slowest tasks the scan keeps ranked; an entry cut shorter cannot serve it. */
  readonly outlierKeep: number;
}

// An entry holds a partial (classes, counts, hashes, paths) and the recorded cwd; never a body.
interface CacheEntry {
  readonly format: number;
  readonly partialVersion: number;
  /** {@link CODE_ID} of the code that made it. */
  readonly codeId: string;
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
    e.codeId === CODE_ID &&
    e.path === path &&
    e.size === key.file.size &&
    e.mtimeMs === key.file.mtimeMs &&
    e.fresh === key.fresh &&
    e.maxLineBytes === key.maxLineBytes &&
    typeof e.scan === "object" &&
    e.scan !== null &&
    typeof e.scan.cwd === "string" &&
    typeof e.scan.bytes === "number" &&
    e.scan.partial?.version === PARTIAL_VERSION &&
    Array.isArray(e.scan.partial.analytics?.outliers)
  );
}

// The entry's scan with its slowest tasks cut to the key's, or undefined when it was cut shorter
// (by a scan asking for fewer) and may lack some.
function servedScan(entry: CacheEntry, key: CacheKey): FileScan | undefined {
  const { partial } = entry.scan;
  const outliers = outliersCutTo(partial.analytics, key.outlierKeep);
  if (outliers === null) return undefined;
  return { ...entry.scan, partial: { ...partial, analytics: { ...partial.analytics, outliers, outlierKeep: key.outlierKeep } } };
}

/** A scan to store: the key it was made under and its JSON text. */
export interface CacheWrite {
  readonly key: CacheKey;
  readonly scanJson: string;
}

/**
 * Per-file partials on disk, kept in packs of entries (one pack per batch of files scanned
 * together). An entry is reused only when the file's size and mtime, its freshness, the line
 * limit, both format versions and the code that made it all match, and it kept at least the slowest tasks asked for;
 * an unreadable or corrupt entry is a miss.
 */
export class PartialCache {
  readonly #packs: EntryPacks;

  constructor(dir: string) {
    this.#packs = new EntryPacks(dir);
  }

  /** Hands `onHit` the cached scan of each key that has one that still applies, with the key's index. */
  reuse(keys: readonly CacheKey[], onHit: (index: number, scan: FileScan) => void, signal?: AbortSignal): Promise<void> {
    const paths = keys.map((key) => resolve(key.file.path));
    return this.#packs.reuse(
      paths,
      (entry, i) => (matches(entry, keys[i] as CacheKey, paths[i] as string) ? servedScan(entry, keys[i] as CacheKey) : undefined),
      onHit,
      signal,
    );
  }

  // The entry's text around the scan's JSON, so a scan serialised once (by a worker, to post it)
  // is not serialised again.
  #entry({ key, scanJson }: CacheWrite): PackEntry {
    const path = resolve(key.file.path);
    const { size, mtimeMs } = key.file;
    const header = {
      format: CACHE_FORMAT,
      partialVersion: PARTIAL_VERSION,
      codeId: CODE_ID,
      path,
      size,
      mtimeMs,
      fresh: key.fresh,
      maxLineBytes: key.maxLineBytes,
    };
    return { path, text: `${JSON.stringify(header).slice(0, -1)},"scan":${scanJson}}` };
  }

  /** Why the directory cannot take entries, or null when it can. */
  unwritable(): Promise<CacheNotWritten | null> {
    return this.#packs.unwritable();
  }

  /** Stores the scans of some files as one pack; its name, or null (a failure to write only costs the reuse). */
  put(writes: readonly CacheWrite[]): Promise<string | null> {
    return this.#packs.write(writes.map((w) => this.#entry(w)));
  }

  /** {@link put} with blocking writes, for a scan worker thread, whose scan then {@link adopt}s the pack. */
  putSync(writes: readonly CacheWrite[]): string | null {
    return this.#packs.writeSync(writes.map((w) => this.#entry(w)));
  }

  /** Notes that pack `name`, written for this scan by a worker, holds the entry of `path` next. */
  adopt(name: string, path: string): void {
    this.#packs.adopt(name, resolve(path));
  }

  /**
   * Drops entries of files that no longer exist and stale entries of those scanned again and,
   * over `maxBytes`, the least recently written packs.
   */
  prune(present: readonly string[], maxBytes: number): Promise<PruneOutcome> {
    return this.#packs.prune(
      present.map((p) => resolve(p)),
      maxBytes,
    );
  }
}
