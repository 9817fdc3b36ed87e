import { Worker } from "node:worker_threads";
import { scanWorkerFailed } from "../errors.js";
import { scanFile, type FileScan, type FileTask } from "./scan-file.js";
import type { WorkerReply, WorkerRequest } from "./worker-protocol.js";

/** A file's scan, or null when it could not be read. */
export type FileResult = FileScan | null;

/**
 * Called as each file finishes, in completion order, with its index in the task list and
 * whether its scan is already in the task's cache directory (workers store what they read).
 */
export type OnFileDone = (index: number, result: FileResult, cached: boolean) => void;

// Compiled (a bundle), the worker is scan-worker.js beside this module. From the TypeScript
// sources, a thread does not inherit tsx's loader hooks, so a one-line module registers them
// in the new thread before importing the worker's source.
function workerEntry(): URL {
  if (!import.meta.url.endsWith(".ts")) return new URL("./scan-worker.js", import.meta.url);
  const source = new URL("./scan-worker.ts", import.meta.url).href;
  const api = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const bootstrap = `import { register } from ${api}; register(); await import(${JSON.stringify(source)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

/** Files handed to a worker ahead, so it never waits for this thread between two files. */
export const FILES_IN_FLIGHT = 3;

/** Scans files in this thread, a few at a time. */
async function scanHere(tasks: readonly FileTask[], onDone: OnFileDone, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < tasks.length; i = next++) {
      signal?.throwIfAborted();
      const task = tasks[i];
      if (task === undefined) continue;
      let result: FileResult;
      try {
        result = await scanFile(task, signal);
      } catch (e) {
        if (signal?.aborted === true) throw e;
        result = null;
      }
      onDone(i, result, false);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILES_IN_FLIGHT, tasks.length) }, lane));
}

/** Scans files on `workers` threads, each holding a few files and taking the next as one finishes. */
async function scanOnWorkers(tasks: readonly FileTask[], workers: number, onDone: OnFileDone, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  const pool: Worker[] = [];
  let next = 0;
  let remaining = tasks.length;
  try {
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => reject(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      const feed = (worker: Worker): void => {
        if (next >= tasks.length) return;
        const id = next;
        next += 1;
        const task = tasks[id];
        if (task !== undefined) worker.postMessage({ id, task } satisfies WorkerRequest);
      };
      for (let w = 0; w < workers; w += 1) {
        const worker = new Worker(workerEntry());
        pool.push(worker);
        worker.on("message", (reply: WorkerReply) => {
          onDone(reply.id, reply.ok ? (JSON.parse(reply.json) as FileScan) : null, reply.ok && reply.cached);
          remaining -= 1;
          if (remaining === 0) {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          } else feed(worker);
        });
        // A worker that dies (not a file that fails to read) fails the scan.
        worker.on("error", (e) => reject(scanWorkerFailed(e.message, e)));
        worker.on("exit", (code) => {
          if (remaining > 0) reject(scanWorkerFailed(`exited with code ${code} before the scan ended`));
        });
        for (let k = 0; k < FILES_IN_FLIGHT; k += 1) feed(worker);
      }
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

/** Scans every task, on worker threads when more than one is asked for and there is work for them. */
export async function scanFiles(tasks: readonly FileTask[], workers: number, onDone: OnFileDone, signal?: AbortSignal): Promise<void> {
  const threads = Math.min(workers, tasks.length);
  if (threads <= 1) await scanHere(tasks, onDone, signal);
  else await scanOnWorkers(tasks, threads, onDone, signal);
}
