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

// Files a thread reads at once, so one file's reads overlap another's work.
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

async function readHere(paths: readonly string[], maxLineBytes: number, onDone: OnUsageDone, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < paths.length; i = next++) {
      signal?.throwIfAborted();
      let file: FileUsage | null;
      try {
        file = await usageOfFile(paths[i] ?? "", maxLineBytes, signal);
      } catch (e) {
        if (signal?.aborted === true) throw e;
        file = null;
      }
      onDone(i, file);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FILES_IN_FLIGHT, paths.length) }, lane));
}

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
      const onAbort = (): void => reject(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      const feed = (worker: Worker): void => {
        if (next >= paths.length) return;
        const id = next++;
        worker.postMessage({ id, path: paths[id] ?? "", maxLineBytes } satisfies UsageRequest);
      };
      for (let w = 0; w < threads; w += 1) {
        const worker = new Worker(workerEntry());
        pool.push(worker);
        worker.on("message", (reply: UsageReply) => {
          onDone(reply.id, reply.file);
          remaining -= 1;
          if (remaining === 0) {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          } else feed(worker);
        });
        // A worker that dies (not a file that fails to read) fails the whole read.
        worker.on("error", (e) => reject(scanWorkerFailed(e.message, e)));
        worker.on("exit", (code) => {
          if (remaining > 0) reject(scanWorkerFailed(`exited with code ${code} before the usage read ended`));
        });
        for (let k = 0; k < FILES_IN_FLIGHT; k += 1) feed(worker);
      }
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

/** Reads the usage of every path, on `threads` worker threads when more than one is asked for. */
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
