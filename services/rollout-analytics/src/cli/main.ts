import { processIo } from "./io.js";
import { runCli } from "./program.js";

// A reader that stops early (`| head`, a `| jq` that fails) closes the pipe: the report is no
// longer wanted, so the command ends quietly with the status a shell gives a writer killed by
// SIGPIPE (128 + 13), as the reference ends, instead of a stack trace of an unhandled EPIPE.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
  process.exit(141);
});

// No top-level await: the command's bundle is a CommonJS script (see bin/rollouts.cjs).
void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
