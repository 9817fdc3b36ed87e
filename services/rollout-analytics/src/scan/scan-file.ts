import { basename } from "node:path";
import { partialOfRollout, type CorpusPartial } from "@crs/domain/rollout";
import { readRolloutFile, type ReaderLimits } from "../reader/index.js";

/** One file to scan, as handed to a worker. */
export interface FileTask {
  readonly path: string;
  /** Whether the rollout may still be written (its mtime is within the freshness window). */
  readonly fresh: boolean;
  readonly limits: ReaderLimits;
}

/** The scan of one readable file: its partial and the cwd its session_meta recorded. */
export interface FileScan {
  readonly partial: CorpusPartial;
  /** Recorded cwd ("" when the rollout has no session_meta); scope is decided from it. */
  readonly cwd: string;
  readonly bytes: number;
}

/** Reads one rollout file and summarises it as a partial; I/O errors reject. */
export async function scanFile(task: FileTask, signal?: AbortSignal): Promise<FileScan> {
  const { rollout, bytes } = await readRolloutFile(task.path, task.limits, signal);
  // Health rows name sessions by file name, as the reference does.
  const partial = partialOfRollout({ rollout, fresh: task.fresh, session: basename(task.path) });
  return { partial, cwd: rollout.meta?.cwd ?? "", bytes };
}
