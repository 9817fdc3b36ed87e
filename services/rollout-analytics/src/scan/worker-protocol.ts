import type { FileScan, FileTask } from "./scan-file.js";

/** A file sent to a scan worker. */
export interface WorkerRequest {
  readonly id: number;
  readonly task: FileTask;
}

/** A worker's answer: the file's scan, or the code of the failure that made it unreadable. */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly scan: FileScan }
  | { readonly id: number; readonly ok: false; readonly code: string };
