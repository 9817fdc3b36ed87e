// Worker entry: scans the files it is sent, one at a time. It is its own module so a bundler
// can emit it as a separate entry point (`scan-worker.js` beside the module that starts it).
import { parentPort } from "node:worker_threads";
import { scanFile } from "./scan-file.js";
import type { WorkerReply, WorkerRequest } from "./worker-protocol.js";

const port = parentPort;
port?.on("message", (request: WorkerRequest) => {
  scanFile(request.task).then(
    (scan) => port.postMessage({ id: request.id, ok: true, scan } satisfies WorkerReply),
    (e: unknown) =>
      port.postMessage({ id: request.id, ok: false, code: (e as NodeJS.ErrnoException).code ?? "READ_FAILED" } satisfies WorkerReply),
  );
});
