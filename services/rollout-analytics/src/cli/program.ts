import { Command, CommanderError } from "commander";
import { AnalyticsError } from "../errors.js";
import { generateCommand } from "./commands/generate.js";
import { retentionCommand } from "./commands/retention.js";
import { rolloutCommand } from "./commands/rollout.js";
import { scanCommand } from "./commands/scan.js";
import { usageCommand } from "./commands/usage.js";
import type { CliIo } from "./io.js";

/** The `rollouts` command line. */
export function buildProgram(io: CliIo): Command {
  const program = new Command("rollouts")
    .description("Scan OpenAI Codex CLI rollouts into lifecycle, analytics, health, usage and retention reports")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
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
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof AnalyticsError) {
      io.err(`rollouts: ${e.message.replace(/^rollout-analytics: /, "")}\n`);
      return e.code === "INVALID_ARGUMENT" ? 2 : 1;
    }
    io.err(`rollouts: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}
