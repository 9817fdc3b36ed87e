// Worker entry of the usage reader: reads the files it is sent for their usage. It is its own
// module so a bundler can emit it as a separate entry point (`usage-worker.js` beside the module
// that starts it), and it loads only the usage reader, so a thread starts quickly.
import { parentPort } from "node:worker_threads";
import type { UsageReply, UsageRequest } from "./usage-pool.js";
import { usageOfFileOrNull } from "./usage-file.js";

const port = parentPort;
port?.on("message", (request: UsageRequest) => {
  port.postMessage({ id: request.id, file: usageOfFileOrNull(request.path, request.maxLineBytes) } satisfies UsageReply);
});
