import { availableParallelism } from "node:os";
import { isFresh } from "@crs/domain/rollout";
import { walkRollouts } from "../walk/index.js";
import { PartialCache, type CacheWrite } from "./partial-cache.js";
import type { FileTask } from "./scan-file.js";
import { ScanTally, type ScanSlot } from "./scan-tally.js";
import type { ScanOptions, ScanResult } from "./types.js";
import { checkOptions } from "./validate-options.js";
import { scanFiles } from "./worker-pool.js";

// Scans made in this thread go to the cache in packs of this many.
const PACK_FILES = 32;

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
  const tally = new ScanTally(slots.length, opts.cwd, opts.topN);
  const bytesTotal = slots.reduce((n, s) => n + s.file.size, 0);
  let filesDone = 0;
  let bytesDone = 0;
  const done = (slot: ScanSlot): void => {
    filesDone += 1;
    bytesDone += slot.file.size;
    onProgress?.({ filesDone, filesTotal: slots.length, bytesDone, bytesTotal });
  };
  const cache = opts.cacheDir === null ? null : new PartialCache(opts.cacheDir);
  const keyOf = (s: ScanSlot) => ({ file: s.file, fresh: s.fresh, maxLineBytes: opts.maxLineBytes, outlierKeep: opts.topN });
  let misses = slots;
  if (cache !== null) {
    const hit = new Array<boolean>(slots.length).fill(false);
    await cache.reuse(
      slots.map(keyOf),
      (i, scan) => {
        const slot = slots[i];
        if (slot === undefined) return;
        hit[i] = true;
        tally.add(slot, scan, true);
        done(slot);
      },
      signal,
    );
    misses = slots.filter((_, i) => !hit[i]);
  }
  // A cache that cannot be written still served what it holds; the files read now are not stored.
  const cacheNotWritten = cache === null || misses.length === 0 ? null : await cache.unwritable();
  const store = cacheNotWritten === null ? cache : null;
  const limits = { maxLineBytes: opts.maxLineBytes };
  const tasks: FileTask[] = misses.map((s) => ({
    file: s.file,
    fresh: s.fresh,
    limits,
    cacheDir: store === null ? null : opts.cacheDir,
    scopeCwd: opts.cwd,
    outlierKeep: opts.topN,
  }));
  const writes: Promise<unknown>[] = [];
  // Scans made in this thread are stored a pack at a time; workers store their own.
  let pending: CacheWrite[] = [];
  const flush = (): void => {
    if (store !== null && pending.length > 0) writes.push(store.put(pending));
    pending = [];
  };
  const merged = await scanFiles(
    tasks,
    opts.workers ?? threadsFor(misses.reduce((n, s) => n + s.file.size, 0)),
    (index, result, pack) => {
      const slot = misses[index];
      if (slot === undefined) return;
      tally.add(slot, result, false);
      if (pack !== null) cache?.adopt(pack, slot.file.path);
      const partial = result?.partial;
      if (result !== null && partial !== undefined && store !== null && pack === null) {
        pending.push({ key: keyOf(slot), scanJson: JSON.stringify({ ...result, partial }) });
        if (pending.length >= PACK_FILES) flush();
      }
      done(slot);
    },
    signal,
  );
  flush();
  for (const partial of merged) tally.addMerged(partial);
  await Promise.all(writes);
  // Entries of files that are gone are dropped, and the directory kept under its bound.
  if (store !== null)
    await store.prune(
      walk.files.map((f) => f.path),
      opts.cacheMaxBytes,
    );
  tally.addUnreadableEntries(walk.unreadable, walk.unreadableDirs, walk.outsideRoot);
  return { ...tally.result(), cacheNotWritten };
}
