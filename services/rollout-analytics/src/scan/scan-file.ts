import { basename } from "node:path";
import { partialOfRollout, type CorpusPartial } from "@crs/domain/rollout";
import { readRolloutFile, readRolloutFileSync, type ReaderLimits, type ReadRollout } from "../reader/index.js";
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
}

/** The scan of one readable file: its partial and the cwd its session_meta recorded. */
export interface FileScan {
  readonly partial: CorpusPartial;
  /** Recorded cwd ("" when the rollout has no session_meta); scope is decided from it. */
  readonly cwd: string;
  readonly bytes: number;
}

function summarise(task: FileTask, { rollout, bytes }: ReadRollout): FileScan {
  // Health rows name sessions by file name, as the reference does.
  const partial = partialOfRollout({ rollout, fresh: task.fresh, session: basename(task.file.path) });
  return { partial, cwd: rollout.meta?.cwd ?? "", bytes };
}

/** Reads one rollout file and summarises it as a partial; I/O errors reject. */
export async function scanFile(task: FileTask, signal?: AbortSignal): Promise<FileScan> {
  return summarise(task, await readRolloutFile(task.file.path, task.limits, signal));
}

/** {@link scanFile} with blocking reads, for a worker thread; I/O errors throw. */
export function scanFileSync(task: FileTask): FileScan {
  return summarise(task, readRolloutFileSync(task.file.path, task.limits));
}
