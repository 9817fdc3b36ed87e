/**
 * The no-op Apply baseline as a process of its own, started like a service: it logs
 * `no-op apply serving` with its port as a JSON line and stops on SIGTERM.
 */

import { startNoopApplyServer } from "./noop-apply-server.js";

const server = await startNoopApplyServer();
console.log(JSON.stringify({ msg: "no-op apply serving", grpc: `127.0.0.1:${server.port}`, metrics: 0 }));
process.once("SIGTERM", () => void server.stop().then(() => process.exit(0)));
