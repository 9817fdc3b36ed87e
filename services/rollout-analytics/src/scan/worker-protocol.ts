import type { FileTask } from "./scan-file.js";

/** A file sent to a scan worker. */
export interface WorkerRequest {
  readonly id: number;
  readonly task: FileTask;
}

/**
 * A worker's answer: the file's scan as JSON text (one string crosses threads far cheaper than
 * the partial's object tree, and is what the cache stores anyway) and whether the worker cached
 * it; or the code of the failure that made the file unreadable.
 */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly json: string; readonly cached: boolean }
  | { readonly id: number; readonly ok: false; readonly code: string };
