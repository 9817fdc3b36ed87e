// The `rollouts` command line, callable in-process for tests.
export { runCli, buildProgram } from "./program.js";
export { processIo, type CliIo } from "./io.js";
