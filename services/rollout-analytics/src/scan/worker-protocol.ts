import type { FileTask } from "./scan-file.js";

/** What a scan worker is asked: a batch of files (each with its index in the scan's task list), or its merged result. */
export type WorkerRequest = WorkerScanRequest | { readonly kind: "finish" };

/** A batch of files to scan, each with its index in the scan's task list. */
export interface WorkerScanRequest {
  readonly kind: "scan";
  readonly batch: readonly { readonly id: number; readonly task: FileTask }[];
}

/**
 * One file's outcome, without its partial (the worker merges that itself): the recorded cwd,
 * bytes read and the cache pack the worker stored the scan in (null: not stored); or the code
 * of the failure that made the file unreadable. Stored files of a batch come in their pack's order.
 */
export type FileReply =
  | { readonly id: number; readonly ok: true; readonly cwd: string; readonly bytes: number; readonly pack: string | null }
  | { readonly id: number; readonly ok: false; readonly code: string };

/** A worker's answer: the outcomes of one batch in its order, or the merge of every partial it read, as JSON text (null: it read none). */
export type WorkerReply =
  | { readonly kind: "scanned"; readonly results: readonly FileReply[] }
  | { readonly kind: "merged"; readonly json: string | null };
