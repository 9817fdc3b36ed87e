import { setImmediate as nextTurn } from "node:timers/promises";
import type { Worker } from "node:worker_threads";
import type { CorpusPartial } from "@crs/domain/rollout";
import { scanWorkerFailed } from "../errors.js";
import { scanFileInTurns, scannedOrNull, type FileTask } from "./scan-file.js";
import type { OnFileDone } from "./worker-pool.js";
import { workerClass, workerEntry } from "./worker-entry.js";
import type { WorkerReply, WorkerRequest } from "./worker-protocol.js";
import { enterScan, holdYoungGeneration, leaveScan, WORKER_YOUNG_MB } from "./young-generation.js";

/** Batches handed to a worker ahead, so it never waits for this thread between two batches. */
const BATCHES_IN_FLIGHT = 2;
// A batch holds up to this many files and bytes: each reply wakes this thread, and on a busy
// machine every wake-up costs the worker its core for a while. Near the end batches shrink, so
// the threads finish together.
const BATCH_FILES = 32;
const BATCH_BYTES = 8 * 1024 * 1024;

// A worker's old generation bound, in MB. V8 grows a heap by a factor that shrinks with its
// bound, so a bound near what a worker needs keeps the headroom of three heaps small. It must
// still hold the longest line read in full a few times over (its text, the values parsed from
// it, an output body parsed again), so it scales with that limit.
function oldGenerationMb(maxLineBytes: number): number {
  return Math.max(256, Math.ceil((4 * maxLineBytes) / 2 ** 20) + 64);
}

/**
 * Scans files on `threads` threads: this one, a file at a time, and `threads - 1` workers, each
 * holding a few batches and taking the next as one finishes. This thread's files go to `onDone`
 * with their partials; each worker merges the partials of the files it reads, and once it has no
 * files left, its merge is collected, one per worker. A scan this thread joins needs one heap
 * fewer than one it only feeds.
 */
export async function scanOnThreads(
  tasks: readonly FileTask[],
  threads: number,
  onDone: OnFileDone,
  signal?: AbortSignal,
): Promise<CorpusPartial[]> {
  signal?.throwIfAborted();
  const WorkerThread = threads > 1 ? workerClass() : undefined;
  const pool: Worker[] = [];
  const merged: CorpusPartial[] = [];
  // Workers that sent their merge (one that read no file sends none).
  let finished = 0;
  let next = 0;
  let bytesLeft = tasks.reduce((n, t) => n + t.file.size, 0);
  const maxLineBytes = tasks.reduce((n, t) => Math.max(n, t.limits.maxLineBytes), 0);
  const resourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_MB, maxOldGenerationSizeMb: oldGenerationMb(maxLineBytes) };
  enterScan();
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      let here = true;
      const onAbort = (): void => fail(signal?.reason);
      const fail = (e: unknown): void => {
        failed = true;
        signal?.removeEventListener("abort", onAbort);
        reject(e);
      };
      const settle = (): void => {
        if (here || finished < pool.length) return;
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const send = (worker: Worker, request: WorkerRequest): void => worker.postMessage(request);
      // Batches each worker holds; once the queue is empty and a worker's batches are done, it is
      // asked for its merge, which it then makes while the others finish theirs.
      const held = new Map<Worker, number>();
      const feed = (worker: Worker): void => {
        const cap = Math.min(BATCH_BYTES, bytesLeft / (2 * BATCHES_IN_FLIGHT * threads));
        const batch: { id: number; task: FileTask }[] = [];
        let bytes = 0;
        while (next < tasks.length && batch.length < BATCH_FILES && (batch.length === 0 || bytes < cap)) {
          const task = tasks[next];
          if (task !== undefined) {
            batch.push({ id: next, task });
            bytes += task.file.size;
          }
          next += 1;
        }
        bytesLeft -= bytes;
        const holds = held.get(worker) ?? 0;
        if (batch.length > 0) {
          held.set(worker, holds + 1);
          send(worker, { kind: "scan", batch });
        } else if (holds === 0) send(worker, { kind: "finish" });
      };
      const onReply = (worker: Worker, reply: WorkerReply): void => {
        if (reply.kind === "merged") {
          finished += 1;
          if (reply.json !== null) merged.push(JSON.parse(reply.json) as CorpusPartial);
          settle();
          return;
        }
        for (const r of reply.results) onDone(r.id, r.ok ? { cwd: r.cwd, bytes: r.bytes } : null, r.ok ? r.pack : null);
        held.set(worker, (held.get(worker) ?? 1) - 1);
        feed(worker);
      };
      for (let w = 1; w < threads && WorkerThread !== undefined; w += 1) {
        const worker = new WorkerThread(workerEntry(import.meta.url, "scan-worker"), { resourceLimits });
        pool.push(worker);
        worker.on("message", (reply: WorkerReply) => onReply(worker, reply));
        // A worker that dies (not a file that fails to read) fails the scan.
        worker.on("error", (e) => fail(scanWorkerFailed(e.message, e)));
        worker.on("exit", (code) => {
          if (finished < pool.length) fail(scanWorkerFailed(`exited with code ${code} before the scan ended`));
        });
        for (let k = 0; k < BATCHES_IN_FLIGHT; k += 1) feed(worker);
      }
      // This thread scans too, a file at a time from the same queue, taking replies between files.
      const scanHere = async (): Promise<void> => {
        while (next < tasks.length && !failed) {
          const id = next++;
          const task = tasks[id];
          if (task === undefined) continue;
          bytesLeft -= task.file.size;
          onDone(id, await scannedOrNull(scanFileInTurns(task, signal), signal), null);
          holdYoungGeneration();
          // Workers' replies are taken between this thread's files.
          await nextTurn();
        }
        here = false;
        settle();
      };
      scanHere().catch(fail);
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
    leaveScan();
  }
  return merged;
}
