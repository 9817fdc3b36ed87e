import { availableParallelism } from "node:os";
import { isFresh } from "@crs/domain/rollout";
import { walkRollouts } from "../walk/index.js";
import { PartialCache } from "./partial-cache.js";
import type { FileTask } from "./scan-file.js";
import { ScanTally, type ScanSlot } from "./scan-tally.js";
import type { ScanOptions, ScanResult } from "./types.js";
import { checkOptions } from "./validate-options.js";
import { scanFiles } from "./worker-pool.js";

// Cache entries are read this many at a time.
const CACHE_READS = 32;

// Bytes to read that justify one more thread: starting a worker costs a module load.
const BYTES_PER_THREAD = 32 * 1024 * 1024;

// One thread per core, but only as many as the bytes to read justify.
function threadsFor(bytes: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.ceil(bytes / BYTES_PER_THREAD)));
}

/**
 * Scans every rollout under a root into one merged partial: files are walked newest first,
 * partials of unchanged files come from the cache, the rest are read on worker threads, and
 * all are merged with the domain's associative merge as they arrive, so the answer does not
 * depend on how the work was split or in which order it finished.
 */
export async function scanCorpus(options: ScanOptions): Promise<ScanResult> {
  const opts = checkOptions(options);
  const { signal, onProgress } = options;
  const walk = await walkRollouts(opts.root, { limit: opts.limit });
  const slots: ScanSlot[] = walk.files.map((file, index) => ({
    index,
    file,
    fresh: isFresh({ mtimeMs: file.mtimeMs, nowMs: opts.now, freshWithinMs: opts.freshMs }),
  }));
  const tally = new ScanTally(slots.length, opts.cwd);
  const bytesTotal = slots.reduce((n, s) => n + s.file.size, 0);
  let filesDone = 0;
  let bytesDone = 0;
  const done = (slot: ScanSlot): void => {
    filesDone += 1;
    bytesDone += slot.file.size;
    onProgress?.({ filesDone, filesTotal: slots.length, bytesDone, bytesTotal });
  };
  const cache = opts.cacheDir === null ? null : new PartialCache(opts.cacheDir);
  const keyOf = (s: ScanSlot) => ({ file: s.file, fresh: s.fresh, maxLineBytes: opts.maxLineBytes });
  let misses = slots;
  if (cache !== null) {
    misses = [];
    for (let i = 0; i < slots.length; i += CACHE_READS) {
      signal?.throwIfAborted();
      const batch = slots.slice(i, i + CACHE_READS);
      const hits = await Promise.all(batch.map((slot) => cache.get(keyOf(slot))));
      batch.forEach((slot, k) => {
        const hit = hits[k] ?? null;
        if (hit === null) misses.push(slot);
        else {
          tally.add(slot, hit, true);
          done(slot);
        }
      });
    }
  }
  const limits = { maxLineBytes: opts.maxLineBytes };
  const tasks: FileTask[] = misses.map((s) => ({ file: s.file, fresh: s.fresh, limits, cacheDir: opts.cacheDir, scopeCwd: opts.cwd }));
  const writes: Promise<boolean>[] = [];
  const merged = await scanFiles(
    tasks,
    opts.workers ?? threadsFor(misses.reduce((n, s) => n + s.file.size, 0)),
    (index, result, cached) => {
      const slot = misses[index];
      if (slot === undefined) return;
      tally.add(slot, result, false);
      const partial = result?.partial;
      if (result !== null && partial !== undefined && cache !== null && !cached)
        writes.push(cache.put(keyOf(slot), { ...result, partial }));
      done(slot);
    },
    signal,
  );
  for (const partial of merged) tally.addMerged(partial);
  await Promise.all(writes);
  // Entries of files that are gone are dropped, and the directory kept under its bound.
  if (cache !== null)
    await cache.prune(
      walk.files.map((f) => f.path),
      opts.cacheMaxBytes,
    );
  tally.addUnreadableEntries(walk.unreadable, walk.unreadableDirs);
  return tally.result();
}
