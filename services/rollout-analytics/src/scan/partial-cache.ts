import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import { PARTIAL_VERSION } from "@crs/domain/rollout";
import type { RolloutFile } from "../walk/index.js";
import { pruneCache, type PruneOutcome } from "./prune-cache.js";
import type { FileScan } from "./scan-file.js";

/** Version of the cache entry layout; bumped when it changes, so old entries are recomputed. */
export const CACHE_FORMAT = 1;

/** Where scans keep per-file partials by default: `$XDG_CACHE_HOME` or `~/.cache`. */
export function defaultCacheDir(): string {
  const base = process.env["XDG_CACHE_HOME"]?.trim() || join(homedir(), ".cache");
  return join(base, "crs-rollout-analytics", "scan");
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
  readonly #dir: string;
  #ready: Promise<unknown> | null = null;

  constructor(dir: string) {
    this.#dir = dir;
  }

  #entryPath(path: string): string {
    return join(this.#dir, `${createHash("sha256").update(path).digest("hex")}.json`);
  }

  /** The cached scan of a file, or null when there is none that still applies. */
  async get(key: CacheKey): Promise<FileScan | null> {
    const path = resolve(key.file.path);
    let entry: unknown;
    try {
      entry = JSON.parse(await readFile(this.#entryPath(path), "utf8")) as unknown;
    } catch {
      return null;
    }
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

  #tempOf(target: string): string {
    return `${target}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  }

  /** Stores the scan of a file; a failure to write only costs the reuse. */
  async put(key: CacheKey, scan: FileScan): Promise<boolean> {
    const path = resolve(key.file.path);
    const target = this.#entryPath(path);
    const temp = this.#tempOf(target);
    try {
      this.#ready ??= mkdir(this.#dir, { recursive: true });
      await this.#ready;
      await writeFile(temp, this.#entryText(path, key, JSON.stringify(scan)));
      await rename(temp, target);
      return true;
    } catch {
      await rm(temp, { force: true }).catch(() => undefined);
      return false;
    }
  }

  /** {@link put} with blocking writes and the scan as JSON text, for a scan worker thread. */
  putSync(key: CacheKey, scanJson: string): boolean {
    const path = resolve(key.file.path);
    const target = this.#entryPath(path);
    const temp = this.#tempOf(target);
    try {
      if (this.#ready === null) {
        mkdirSync(this.#dir, { recursive: true });
        this.#ready = Promise.resolve();
      }
      writeFileSync(temp, this.#entryText(path, key, scanJson));
      renameSync(temp, target);
      return true;
    } catch {
      rmSync(temp, { force: true });
      return false;
    }
  }

  /** Removes entries of files that no longer exist and, over `maxBytes`, the least recently written; see {@link pruneCache}. */
  prune(present: readonly string[], maxBytes: number): Promise<PruneOutcome> {
    return pruneCache(this.#dir, new Set(present.map((p) => basename(this.#entryPath(resolve(p))))), maxBytes);
  }
}
