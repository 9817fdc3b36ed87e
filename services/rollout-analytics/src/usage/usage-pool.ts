import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { Worker } from "node:worker_threads";
import { scanWorkerFailed } from "../errors.js";
import { TURN_BYTES } from "../reader/index.js";
import { workerClass, workerEntry } from "../scan/index.js";
import { type FileUsage, usageOfFileOrNull } from "./usage-file.js";

/** A file sent to a usage worker. */
export interface UsageRequest {
  readonly id: number;
  readonly path: string;
  readonly maxLineBytes: number;
}

/** A worker's answer: the file's usage, or null when it could not be read. */
export interface UsageReply {
  readonly id: number;
  readonly file: FileUsage | null;
}

/** Called as each file finishes, in completion order, with its index in the path list. */
export type OnUsageDone = (index: number, file: FileUsage | null) => void;

// Files queued at a worker, so it never waits for the next path while its reply travels.
const FILES_IN_FLIGHT = 3;

// The calling thread reads files too, taking the next path from the same queue as the workers,
// so `threads` threads need only `threads - 1` workers to start (none for one thread). The event
// loop gets turns between this thread's files, so progress is drawn and an abort is seen.
async function readOnThreads(
  paths: readonly string[],
  maxLineBytes: number,
  threads: number,
  onDone: OnUsageDone,
  signal?: AbortSignal,
): Promise<void> {
  signal?.throwIfAborted();
  const WorkerThread = threads > 1 ? workerClass() : undefined;
  const pool: Worker[] = [];
  let next = 0;
  let remaining = paths.length;
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const onAbort = (): void => fail(signal?.reason);
      const fail = (e: unknown): void => {
        failed = true;
        signal?.removeEventListener("abort", onAbort);
        reject(e);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const finish = (index: number, file: FileUsage | null): void => {
        onDone(index, file);
        remaining -= 1;
        if (remaining === 0) {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        }
      };
      const feed = (worker: Worker): void => {
        if (next >= paths.length) return;
        const id = next++;
        worker.postMessage({ id, path: paths[id] ?? "", maxLineBytes } satisfies UsageRequest);
      };
      for (let w = 1; w < threads && WorkerThread !== undefined; w += 1) {
        const worker = new WorkerThread(workerEntry(import.meta.url, "usage-worker"));
        pool.push(worker);
        worker.on("message", (reply: UsageReply) => {
          feed(worker);
          finish(reply.id, reply.file);
        });
        // A worker that dies (not a file that fails to read) fails the whole read.
        worker.on("error", (e) => fail(scanWorkerFailed(e.message, e)));
        worker.on("exit", (code) => {
          if (remaining > 0) fail(scanWorkerFailed(`exited with code ${code} before the usage read ended`));
        });
        for (let k = 0; k < FILES_IN_FLIGHT; k += 1) feed(worker);
      }
      const here = async (): Promise<void> => {
        let sinceTurn = 0;
        while (next < paths.length && !failed) {
          const id = next++;
          const file = usageOfFileOrNull(paths[id] ?? "", maxLineBytes);
          finish(id, file);
          sinceTurn += file?.bytes ?? 0;
          // Workers' replies are taken between this thread's files; alone, this thread needs a
          // turn only now and then, to draw progress and see an abort.
          if (pool.length > 0 || sinceTurn >= TURN_BYTES) {
            sinceTurn = 0;
            await yieldToLoop();
          }
        }
      };
      here().catch(fail);
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

/** Reads the usage of every path on `threads` threads: this one, and workers when more than one is asked for. */
export async function readUsage(
  paths: readonly string[],
  maxLineBytes: number,
  threads: number,
  onDone: OnUsageDone,
  signal?: AbortSignal,
): Promise<void> {
  if (paths.length > 0) await readOnThreads(paths, maxLineBytes, Math.max(1, Math.min(threads, paths.length)), onDone, signal);
}
