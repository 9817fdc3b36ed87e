import { partialOfFold, sessionOfFile, type CorpusPartial } from "@crs/domain/rollout";
import { foldRolloutFile, foldRolloutFileInTurns, foldRolloutFileSync, type FoldedFile, type ReaderLimits } from "../reader/index.js";
import type { RolloutFile } from "../walk/index.js";

/** One file to scan, as handed to a worker. */
export interface FileTask {
  /** The file as the walk stat'ed it (its size and mtime key its cache entry). */
  readonly file: RolloutFile;
  /** Whether the rollout may still be written (its mtime is within the freshness window). */
  readonly fresh: boolean;
  readonly limits: ReaderLimits;
  /** Cache directory a worker stores the file's scan in; null: none. */
  readonly cacheDir: string | null;
  /** The scan's cwd filter ("" for none); a worker merges an out-of-scope file as such. */
  readonly scopeCwd: string;
  /** Slowest tasks the file's partial keeps ranked: the scan's top N, so the merge cuts none it needs. */
  readonly outlierKeep: number;
}

/** The scan of one readable file: its partial and the cwd its session_meta recorded. */
export interface FileScan {
  readonly partial: CorpusPartial;
  /** Recorded cwd ("" when the rollout has no session_meta); scope is decided from it. */
  readonly cwd: string;
  readonly bytes: number;
}

// The partial keeps totals and samples only: no per-call lists.
const SCAN_FOLD = { maxListed: 0 };

function summarise(task: FileTask, { census, fold, bytes }: FoldedFile): FileScan {
  const folded = fold.finish({ meta: census.meta, fresh: task.fresh });
  // Health rows name sessions by file name without `.jsonl`, as the reference does.
  const partial = partialOfFold({ folded, census, session: sessionOfFile(task.file.path), outlierKeep: task.outlierKeep });
  return { partial, cwd: census.meta?.cwd ?? "", bytes };
}

/** Reads one rollout file, folding it as it streams, and summarises it as a partial; I/O errors reject. */
export async function scanFile(task: FileTask, signal?: AbortSignal): Promise<FileScan> {
  return summarise(task, await foldRolloutFile(task.file.path, { limits: task.limits, fold: SCAN_FOLD, signal }));
}

/** {@link scanFile} with blocking reads, for a worker thread; I/O errors throw. */
export function scanFileSync(task: FileTask): FileScan {
  return summarise(task, foldRolloutFileSync(task.file.path, { limits: task.limits, fold: SCAN_FOLD }));
}

/** {@link scanFile} with blocking reads that give the event loop a turn every few MiB, for the thread that starts the workers. */
export async function scanFileInTurns(task: FileTask, signal?: AbortSignal): Promise<FileScan> {
  return summarise(task, await foldRolloutFileInTurns(task.file.path, { limits: task.limits, fold: SCAN_FOLD, signal }));
}

/** What `scan` resolves to, or null when the file could not be read; an abort is thrown on. */
export async function scannedOrNull<T>(scan: Promise<T>, signal?: AbortSignal): Promise<T | null> {
  try {
    return await scan;
  } catch (e) {
    if (signal?.aborted === true) throw e;
    return null;
  }
}
