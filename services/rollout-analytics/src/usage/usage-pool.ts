import { setImmediate as yieldToLoop } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import { scanWorkerFailed } from "../errors.js";
import { type FileUsage, usageOfFile } from "./usage-file.js";

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

// Compiled (a bundle), the worker is usage-worker.js beside this module. From the TypeScript
// sources, a thread does not inherit tsx's loader hooks, so a one-line module registers them in
// the new thread before importing the worker's source.
function workerEntry(): URL {
  if (!import.meta.url.endsWith(".ts")) return new URL("./usage-worker.js", import.meta.url);
  const source = new URL("./usage-worker.ts", import.meta.url).href;
  const api = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const bootstrap = `import { register } from ${api}; register(); await import(${JSON.stringify(source)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

// Files are read one after another; the event loop gets a turn between files, so progress is
// drawn and an abort is seen.
async function readHere(paths: readonly string[], maxLineBytes: number, onDone: OnUsageDone, signal?: AbortSignal): Promise<void> {
  for (let i = 0; i < paths.length; i += 1) {
    signal?.throwIfAborted();
    let file: FileUsage | null;
    try {
      file = usageOfFile(paths[i] ?? "", maxLineBytes);
    } catch {
      file = null;
    }
    onDone(i, file);
    await yieldToLoop();
  }
}

// The calling thread reads files too, taking the next path from the same queue as the workers,
// so `threads` threads need only `threads - 1` workers to start.
async function readOnWorkers(
  paths: readonly string[],
  maxLineBytes: number,
  threads: number,
  onDone: OnUsageDone,
  signal?: AbortSignal,
): Promise<void> {
  signal?.throwIfAborted();
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
      for (let w = 1; w < threads; w += 1) {
        const worker = new Worker(workerEntry());
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
        while (next < paths.length && !failed) {
          const id = next++;
          let file: FileUsage | null;
          try {
            file = usageOfFile(paths[id] ?? "", maxLineBytes);
          } catch {
            file = null;
          }
          finish(id, file);
          // Workers' replies are taken between this thread's files.
          await yieldToLoop();
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
  const n = Math.min(threads, paths.length);
  if (n <= 1) await readHere(paths, maxLineBytes, onDone, signal);
  else await readOnWorkers(paths, maxLineBytes, n, onDone, signal);
}
