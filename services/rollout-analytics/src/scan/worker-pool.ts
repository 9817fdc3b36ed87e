import type { CorpusPartial } from "@crs/domain/rollout";
import { scanFile, scannedOrNull, type FileTask } from "./scan-file.js";
import { scanOnThreads } from "./worker-threads.js";

/**
 * A file's outcome: its recorded cwd, the bytes read and, when this thread is to merge it, its
 * partial (absent when the worker that read it merged it already); null when it could not be read.
 */
export type FileResult = { readonly cwd: string; readonly bytes: number; readonly partial?: CorpusPartial } | null;

/**
 * Called as each file finishes, in completion order, with its index in the task list and the
 * pack of the task's cache directory its scan is already in (workers store what they read), or
 * null. Files stored in one pack are reported in the pack's order.
 */
export type OnFileDone = (index: number, result: FileResult, pack: string | null) => void;

/** Files this thread reads at once when it scans alone, so one file's reads overlap another's decoding. */
export const FILES_IN_FLIGHT = 3;

/** Scans files in this thread, a few at a time. */
async function scanHere(tasks: readonly FileTask[], onDone: OnFileDone, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < tasks.length; i = next++) {
      signal?.throwIfAborted();
      const task = tasks[i];
      if (task === undefined) continue;
      onDone(i, await scannedOrNull(scanFile(task, signal), signal), null);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILES_IN_FLIGHT, tasks.length) }, lane));
}

/**
 * Scans every task, on this thread and worker threads when more than one thread is asked for and
 * there is work for them. Resolves to the partials the workers merged themselves (none when this
 * thread scanned alone).
 */
export async function scanFiles(
  tasks: readonly FileTask[],
  workers: number,
  onDone: OnFileDone,
  signal?: AbortSignal,
): Promise<CorpusPartial[]> {
  const threads = Math.min(workers, tasks.length);
  if (threads > 1) return scanOnThreads(tasks, threads, onDone, signal);
  await scanHere(tasks, onDone, signal);
  return [];
}
