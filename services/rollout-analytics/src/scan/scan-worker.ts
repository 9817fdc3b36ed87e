// Worker entry: scans the batches of files it is sent, one file at a time, with blocking reads
// (the thread has nothing else to do meanwhile). It stores the scans of each batch in the cache as one pack and sums
// each partial itself, so the thread that started it only counts files; the merge goes back
// once, when the scan asks for it. It is its own module so a bundler can emit it as a separate
// entry point (`scan-worker.js` beside the module that starts it).
import { parentPort } from "node:worker_threads";
import { CorpusSum, outOfScopePartial, sameCwd } from "@crs/domain/rollout";
import { PartialCache, type CacheWrite } from "./partial-cache.js";
import { scanFileSync, type FileScan, type FileTask } from "./scan-file.js";
import type { FileReply, WorkerReply, WorkerRequest, WorkerScanRequest } from "./worker-protocol.js";

const caches = new Map<string, PartialCache>();
let sum = new CorpusSum();
// Files added to the sum since the last merge; a worker that read none merges nothing, since an
// empty partial would carry the default cut of slowest tasks into the scan's.
let added = 0;

// Scans one file, adding its partial to the sum; its scan as JSON for the cache, or the failure's code.
function scanOne(task: FileTask): { scan: FileScan; json: string | null } | { code: string } {
  let scan: FileScan;
  try {
    scan = scanFileSync(task);
  } catch (e) {
    return { code: (e as NodeJS.ErrnoException).code ?? "READ_FAILED" };
  }
  // The same scope rule as the scan's tally applies to files merged by the thread that started it.
  sum.add(task.scopeCwd === "" || sameCwd(scan.cwd, task.scopeCwd) ? scan.partial : outOfScopePartial(task.outlierKeep));
  added += 1;
  return { scan, json: task.cacheDir === null ? null : JSON.stringify(scan) };
}

// Scans a batch and stores the scans it made as one cache pack per directory (one in practice).
function scanBatch(batch: WorkerScanRequest["batch"]): FileReply[] {
  const outcomes = batch.map(({ task }) => scanOne(task));
  const stored = new Map<string, string>();
  const dirs = new Set(batch.map(({ task }) => task.cacheDir));
  for (const dir of dirs) {
    if (dir === null) continue;
    const writes: CacheWrite[] = [];
    batch.forEach(({ task }, i) => {
      const o = outcomes[i];
      if (task.cacheDir === dir && o !== undefined && "scan" in o && o.json !== null)
        writes.push({
          key: { file: task.file, fresh: task.fresh, maxLineBytes: task.limits.maxLineBytes, outlierKeep: task.outlierKeep },
          scanJson: o.json,
        });
    });
    let cache = caches.get(dir);
    if (cache === undefined) caches.set(dir, (cache = new PartialCache(dir)));
    const pack = cache.putSync(writes);
    if (pack !== null) stored.set(dir, pack);
  }
  return batch.map(({ id, task }, i): FileReply => {
    const o = outcomes[i];
    if (o === undefined || !("scan" in o)) return { id, ok: false, code: o?.code ?? "READ_FAILED" };
    return {
      id,
      ok: true,
      cwd: o.scan.cwd,
      bytes: o.scan.bytes,
      pack: task.cacheDir === null ? null : (stored.get(task.cacheDir) ?? null),
    };
  });
}

function answer(request: WorkerRequest): WorkerReply {
  if (request.kind === "scan") return { kind: "scanned", results: scanBatch(request.batch) };
  const json = added === 0 ? null : JSON.stringify(sum.result());
  sum = new CorpusSum();
  added = 0;
  return { kind: "merged", json };
}

const port = parentPort;
port?.on("message", (request: WorkerRequest) => port.postMessage(answer(request)));
