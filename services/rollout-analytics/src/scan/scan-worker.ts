// Worker entry: scans the files it is sent, one at a time, with blocking reads (the thread has
// nothing else to do meanwhile), and stores each scan in the cache itself, so the thread that
// merges only parses and merges. It is its own module so a bundler can emit it as a separate
// entry point (`scan-worker.js` beside the module that starts it).
import { parentPort } from "node:worker_threads";
import { PartialCache } from "./partial-cache.js";
import { scanFileSync } from "./scan-file.js";
import type { WorkerReply, WorkerRequest } from "./worker-protocol.js";

const caches = new Map<string, PartialCache>();

function reply({ id, task }: WorkerRequest): WorkerReply {
  let json: string;
  try {
    json = JSON.stringify(scanFileSync(task));
  } catch (e) {
    return { id, ok: false, code: (e as NodeJS.ErrnoException).code ?? "READ_FAILED" };
  }
  let cached = false;
  if (task.cacheDir !== null) {
    let cache = caches.get(task.cacheDir);
    if (cache === undefined) caches.set(task.cacheDir, (cache = new PartialCache(task.cacheDir)));
    cached = cache.putSync({ file: task.file, fresh: task.fresh, maxLineBytes: task.limits.maxLineBytes }, json);
  }
  return { id, ok: true, json, cached };
}

const port = parentPort;
port?.on("message", (request: WorkerRequest) => port.postMessage(reply(request)));
