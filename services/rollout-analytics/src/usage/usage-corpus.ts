import { availableParallelism } from "node:os";
import { sameCwd, type UsagePartial, UsageSum } from "@crs/domain/rollout";
import { badField } from "../errors.js";
import { DEFAULT_MAX_LINE_BYTES } from "../reader/index.js";
import type { CacheNotWritten, ScanProgress } from "../scan/index.js";
import { type RolloutFile, walkRollouts } from "../walk/index.js";
import { UsageCache, usageCacheDir, type UsageWrite } from "./usage-cache.js";
import type { FileUsage } from "./usage-file.js";
import { readUsage } from "./usage-pool.js";

/** Options of a usage read. */
export interface UsageOptions {
  /** Store root: rollouts are the `*.jsonl` files under it. */
  readonly root: string;
  /** Count only rollouts whose session_meta recorded this cwd. */
  readonly cwd?: string;
  /** Read only the newest `limit` files; 0 or absent reads all. */
  readonly limit?: number;
  /** Threads reading files; 1 reads in this thread. Absent: as many as the bytes to read pay for. */
  readonly workers?: number;
  /** Directory the per-file usage cache lives in (as `usage/`); absent: the user cache; false: none. */
  readonly cacheDir?: string | false;
  /** Longest line decoded in full; longer lines are read by their head. */
  readonly maxLineBytes?: number;
  /** Called as each file is done (read or reused). */
  readonly onProgress?: (progress: ScanProgress) => void;
  /** Stops the read; it then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** File counts of a usage read, in the scan's terms. */
export interface UsageFiles {
  readonly scanned: number;
  readonly outOfScope: number;
  readonly unreadable: number;
  readonly reused: number;
  readonly bytes: number;
}

/** Every in-scope file's usage merged, and the file counts. */
export interface UsageResult {
  readonly usage: UsagePartial;
  readonly files: UsageFiles;
  /** Set when files were read but the cache could not take them (its entries were still reused); null otherwise. */
  readonly cacheNotWritten: CacheNotWritten | null;
}

// Entries per cache pack: an entry is about a kilobyte, so a pack stays near a megabyte and a warm
// read of thousands of rollouts opens a few files.
const PACK_FILES = 1024;

// Bytes to read that justify one more thread. A thread's first tenth of a second goes to
// warming its compiled code, after which it reads several hundred MB/s; this thread reads beside
// the workers, so a second thread pays only from a few hundred megabytes on.
const BYTES_PER_THREAD = 256 * 1024 * 1024;

function count(value: number | undefined, field: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) throw badField(field, `must be an integer of at least ${min}`);
  return value;
}

/**
 * Token usage of every rollout under a root, read by the usage-only reader: the same files the
 * scan reads (newest first, `limit`, `cwd` scope), the same figures as the scan's usage, with
 * per-file usage reused from its own cache when a file is unchanged.
 */
export async function usageCorpus(options: UsageOptions): Promise<UsageResult> {
  if (typeof options.root !== "string" || options.root.trim() === "") throw badField("root", "must name a directory");
  const { cacheDir, signal, onProgress } = options;
  if (cacheDir !== undefined && cacheDir !== false && (typeof cacheDir !== "string" || cacheDir.trim() === "")) {
    throw badField("cacheDir", "must name a directory or be false");
  }
  const limit = count(options.limit, "limit", 0, 0);
  const workers = options.workers === undefined ? null : count(options.workers, "workers", 1, 1);
  const maxLineBytes = count(options.maxLineBytes, "maxLineBytes", DEFAULT_MAX_LINE_BYTES, 1);
  const scope = options.cwd?.trim() ?? "";
  const walk = await walkRollouts(options.root, { limit });
  const sum = new UsageSum();
  const files = { scanned: 0, outOfScope: 0, unreadable: walk.unreadable, reused: 0, bytes: 0 };
  const bytesTotal = walk.files.reduce((n, f) => n + f.size, 0);
  let filesDone = 0;
  let bytesDone = 0;
  const take = (file: RolloutFile, got: FileUsage | null, reused: boolean): void => {
    filesDone += 1;
    bytesDone += file.size;
    onProgress?.({ filesDone, filesTotal: walk.files.length, bytesDone, bytesTotal });
    if (got === null) {
      files.unreadable += 1;
      return;
    }
    files.scanned += 1;
    files.bytes += got.bytes;
    if (reused) files.reused += 1;
    if (scope !== "" && !sameCwd(got.cwd, scope)) files.outOfScope += 1;
    else sum.add(got.usage);
  };
  const cache = cacheDir === false ? null : new UsageCache(usageCacheDir(cacheDir), maxLineBytes);
  let misses: readonly RolloutFile[] = walk.files;
  if (cache !== null) {
    const hit = new Array<boolean>(walk.files.length).fill(false);
    await cache.reuse(
      walk.files,
      (i, usage) => {
        const file = walk.files[i];
        if (file === undefined) return;
        hit[i] = true;
        take(file, usage, true);
      },
      signal,
    );
    misses = walk.files.filter((_, i) => !hit[i]);
  }
  // A cache that cannot be written still served what it holds; the files read now are not stored.
  const cacheNotWritten = cache === null || misses.length === 0 ? null : await cache.unwritable();
  const store = cacheNotWritten === null ? cache : null;
  const missBytes = misses.reduce((n, f) => n + f.size, 0);
  const threads = workers ?? Math.max(1, Math.min(availableParallelism(), Math.ceil(missBytes / BYTES_PER_THREAD)));
  const writes: Promise<unknown>[] = [];
  // Read files are stored a pack at a time.
  let pending: UsageWrite[] = [];
  const flush = (): void => {
    if (store !== null && pending.length > 0) writes.push(store.put(pending));
    pending = [];
  };
  await readUsage(
    misses.map((f) => f.path),
    maxLineBytes,
    threads,
    (index, got) => {
      const file = misses[index];
      if (file === undefined) return;
      take(file, got, false);
      if (got !== null && store !== null) {
        pending.push({ file, usage: got });
        if (pending.length >= PACK_FILES) flush();
      }
    },
    signal,
  );
  flush();
  await Promise.all(writes);
  // Entries of files that are gone are dropped, and the directory kept under its bound.
  if (store !== null) await store.prune(walk.files.map((f) => f.path));
  return { usage: sum.result(), files, cacheNotWritten };
}
