import { availableParallelism } from "node:os";
import { isFresh, mergeAll, outOfScopePartial, sameCwd, unreadablePartial, type CorpusPartial } from "@crs/domain/rollout";
import { walkRollouts, type RolloutFile } from "../walk/index.js";
import { PartialCache } from "./partial-cache.js";
import type { FileScan, FileTask } from "./scan-file.js";
import type { FileOutcome, ScanOptions, ScanResult } from "./types.js";
import { checkOptions } from "./validate-options.js";
import { scanFiles, type FileResult } from "./worker-pool.js";

// Cache entries are read this many at a time.
const CACHE_READS = 32;

// Bytes to read that justify one more thread: starting a worker costs a module load.
const BYTES_PER_THREAD = 32 * 1024 * 1024;

interface Slot {
  readonly file: RolloutFile;
  readonly fresh: boolean;
  result: FileResult | undefined;
  reused: boolean;
}

/**
 * Scans every rollout under a root into one merged partial: files are walked newest first,
 * partials of unchanged files come from the cache, the rest are read on worker threads, and
 * all are merged with the domain's associative merge, so the answer does not depend on how
 * the work was split.
 */
export async function scanCorpus(options: ScanOptions): Promise<ScanResult> {
  const opts = checkOptions(options);
  const { signal, onProgress } = options;
  const walk = await walkRollouts(opts.root, { limit: opts.limit });
  const slots: Slot[] = walk.files.map((file) => ({
    file,
    fresh: isFresh({ mtimeMs: file.mtimeMs, nowMs: opts.now, freshWithinMs: opts.freshMs }),
    result: undefined,
    reused: false,
  }));
  const bytesTotal = slots.reduce((n, s) => n + s.file.size, 0);
  let filesDone = 0;
  let bytesDone = 0;
  const done = (slot: Slot): void => {
    filesDone += 1;
    bytesDone += slot.file.size;
    onProgress?.({ filesDone, filesTotal: slots.length, bytesDone, bytesTotal });
  };
  const cache = opts.cacheDir === null ? null : new PartialCache(opts.cacheDir);
  const keyOf = (s: Slot) => ({ file: s.file, fresh: s.fresh, maxLineBytes: opts.maxLineBytes });
  if (cache !== null) {
    for (let i = 0; i < slots.length; i += CACHE_READS) {
      signal?.throwIfAborted();
      await Promise.all(
        slots.slice(i, i + CACHE_READS).map(async (slot) => {
          const hit = await cache.get(keyOf(slot));
          if (hit === null) return;
          slot.result = hit;
          slot.reused = true;
          done(slot);
        }),
      );
    }
  }
  const misses = slots.filter((s) => s.result === undefined);
  const tasks: FileTask[] = misses.map((s) => ({ path: s.file.path, fresh: s.fresh, limits: { maxLineBytes: opts.maxLineBytes } }));
  const writes: Promise<boolean>[] = [];
  await scanFiles(
    tasks,
    opts.workers ?? threadsFor(misses.reduce((n, s) => n + s.file.size, 0)),
    (index, result) => {
      const slot = misses[index];
      if (slot === undefined) return;
      slot.result = result;
      if (result !== null && cache !== null) writes.push(cache.put(keyOf(slot), result));
      done(slot);
    },
    signal,
  );
  await Promise.all(writes);
  return summarise(slots, walk.unreadable, opts.cwd);
}

// One thread per core, but only as many as the bytes to read justify.
function threadsFor(bytes: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.ceil(bytes / BYTES_PER_THREAD)));
}

function partialOf(scan: FileScan | null, cwd: string): CorpusPartial {
  if (scan === null) return unreadablePartial();
  return cwd === "" || sameCwd(scan.cwd, cwd) ? scan.partial : outOfScopePartial();
}

function summarise(slots: readonly Slot[], walkUnreadable: number, cwd: string): ScanResult {
  const perFile: FileOutcome[] = [];
  const partials: CorpusPartial[] = [];
  const files = { scanned: 0, outOfScope: 0, unreadable: walkUnreadable, reused: 0, bytes: 0, reusedBytes: 0 };
  for (const slot of slots) {
    const scan = slot.result ?? null;
    const partial = partialOf(scan, cwd);
    partials.push(partial);
    const status = scan === null ? "unreadable" : partial.outOfScope > 0 ? "out_of_scope" : "scanned";
    perFile.push({ path: slot.file.path, size: slot.file.size, mtimeMs: slot.file.mtimeMs, status, fresh: slot.fresh, reused: slot.reused });
    if (scan === null) {
      files.unreadable += 1;
      continue;
    }
    files.scanned += 1;
    files.bytes += scan.bytes;
    if (status === "out_of_scope") files.outOfScope += 1;
    if (slot.reused) {
      files.reused += 1;
      files.reusedBytes += scan.bytes;
    }
  }
  // Entries the walk could not read are unreadable rollouts as far as the reports go.
  for (let i = 0; i < walkUnreadable; i += 1) partials.push(unreadablePartial());
  return { partial: mergeAll(partials), files, perFile };
}
