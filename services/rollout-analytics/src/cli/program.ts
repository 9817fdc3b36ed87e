import { Command } from "commander";
import manifest from "../../package.json" with { type: "json" };
import { generateCommand } from "./commands/generate.js";
import { retentionCommand } from "./commands/retention.js";
import { rolloutCommand } from "./commands/rollout.js";
import { scanCommand } from "./commands/scan.js";
import { usageCommand } from "./commands/usage.js";
import { cliFailure } from "./error-line.js";
import type { CliIo } from "./io.js";

/** The `rollouts` command line. */
export function buildProgram(io: CliIo): Command {
  const program = new Command("rollouts")
    .description("Scan OpenAI Codex CLI rollouts into lifecycle, analytics, health, usage and retention reports")
    .version(manifest.version, "-V, --version", "print the version and exit")
    .exitOverride()
    // Commander's own refusals are printed by runCli, in the shape of every other error line.
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s), outputError: () => undefined });
  scanCommand(program, io);
  usageCommand(program, io);
  rolloutCommand(program, io);
  retentionCommand(program, io);
  generateCommand(program, io);
  return program;
}

/** Runs the CLI on `argv` (without node and script); resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return 0;
  } catch (e) {
    const failure = cliFailure(program, e);
    if (failure === null) return 0;
    io.err(`rollouts: ${failure.text}\n`);
    return failure.exitCode;
  }
}
