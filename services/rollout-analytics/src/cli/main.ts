import { processIo } from "./io.js";
import { runCli } from "./program.js";

// No top-level await: the command's bundle is a CommonJS script (see bin/rollouts.cjs).
void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
