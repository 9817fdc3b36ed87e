/** Test support for services built on the runtime: an echo server and call assertions. */
export { echoHandlers, echoReasons, startEchoServer, type EchoObservations } from "./echo-server.js";
export { eventually, handledCount, rejection } from "./call-assertions.js";
export { repoRoot, ROLLOUTS_DIR, SKIP_REAL } from "./paths.js";
export { freePort } from "./ports.js";
