// Worker entry: scans the batches of files it is sent, one file at a time, with blocking reads
// (the thread has nothing else to do meanwhile). It stores each scan in the cache and merges
// each partial itself, so the thread that started it only counts files; the merge goes back
// once, when the scan asks for it. It is its own module so a bundler can emit it as a separate
// entry point (`scan-worker.js` beside the module that starts it).
import { parentPort } from "node:worker_threads";
import { emptyPartial, mergePartials, outOfScopePartial, sameCwd, type CorpusPartial } from "@crs/domain/rollout";
import { PartialCache } from "./partial-cache.js";
import { BinaryMerger } from "./binary-merger.js";
import { scanFileSync, type FileTask } from "./scan-file.js";
import type { FileReply, WorkerReply, WorkerRequest } from "./worker-protocol.js";

const caches = new Map<string, PartialCache>();
const newMerger = (): BinaryMerger<CorpusPartial> => new BinaryMerger(mergePartials, emptyPartial);
let merger = newMerger();

function scanOne(id: number, task: FileTask): FileReply {
  let scan: ReturnType<typeof scanFileSync>;
  try {
    scan = scanFileSync(task);
  } catch (e) {
    return { id, ok: false, code: (e as NodeJS.ErrnoException).code ?? "READ_FAILED" };
  }
  let cached = false;
  if (task.cacheDir !== null) {
    let cache = caches.get(task.cacheDir);
    if (cache === undefined) caches.set(task.cacheDir, (cache = new PartialCache(task.cacheDir)));
    cached = cache.putSync({ file: task.file, fresh: task.fresh, maxLineBytes: task.limits.maxLineBytes }, JSON.stringify(scan));
  }
  // The same scope rule as the scan's tally applies to files merged by the thread that started it.
  merger.push(task.scopeCwd === "" || sameCwd(scan.cwd, task.scopeCwd) ? scan.partial : outOfScopePartial());
  return { id, ok: true, cwd: scan.cwd, bytes: scan.bytes, cached };
}

function answer(request: WorkerRequest): WorkerReply {
  if (request.kind === "scan") return { kind: "scanned", results: request.batch.map(({ id, task }) => scanOne(id, task)) };
  const json = JSON.stringify(merger.result());
  merger = newMerger();
  return { kind: "merged", json };
}

const port = parentPort;
port?.on("message", (request: WorkerRequest) => port.postMessage(answer(request)));
