import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import { USAGE_VERSION } from "@crs/domain/rollout";
import { pruneCache, type PruneOutcome } from "../scan/index.js";
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
  if (cacheDir !== undefined) return join(cacheDir, "usage");
  const base = process.env["XDG_CACHE_HOME"]?.trim() || join(homedir(), ".cache");
  return join(base, "crs-rollout-analytics", "usage");
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
  readonly #dir: string;
  readonly #maxLineBytes: number;
  #ready: Promise<unknown> | null = null;

  constructor(dir: string, maxLineBytes: number) {
    this.#dir = dir;
    this.#maxLineBytes = maxLineBytes;
  }

  #entryPath(path: string): string {
    return join(this.#dir, `${createHash("sha256").update(path).digest("hex")}.json`);
  }

  /** The cached usage of a file, or null when there is none that still applies. */
  async get(file: RolloutFile): Promise<FileUsage | null> {
    const path = resolve(file.path);
    let entry: unknown;
    try {
      entry = JSON.parse(await readFile(this.#entryPath(path), "utf8")) as unknown;
    } catch {
      return null;
    }
    return matches(entry, file, this.#maxLineBytes, path) ? entry.file : null;
  }

  /** Stores the usage of a file; a failure to write only costs the reuse. */
  async put(file: RolloutFile, usage: FileUsage): Promise<boolean> {
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
    const target = this.#entryPath(path);
    const temp = `${target}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      this.#ready ??= mkdir(this.#dir, { recursive: true });
      await this.#ready;
      await writeFile(temp, JSON.stringify(entry));
      await rename(temp, target);
      return true;
    } catch {
      await rm(temp, { force: true }).catch(() => undefined);
      return false;
    }
  }

  /** Removes entries of files that no longer exist and, over the bound, the least recently written. */
  prune(present: readonly string[]): Promise<PruneOutcome> {
    return pruneCache(this.#dir, new Set(present.map((p) => basename(this.#entryPath(resolve(p))))), USAGE_CACHE_MAX_BYTES);
  }
}
