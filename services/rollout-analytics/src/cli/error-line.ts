import { RolloutError } from "@crs/domain/rollout";
import { type Command, CommanderError } from "commander";
import { AnalyticsError } from "../errors.js";

/** What a failed command prints (one line, without its `rollouts: ` prefix) and how it exits. */
export interface CliFailure {
  readonly text: string;
  /** 2: the command line was wrong, nothing was read; 1: the run itself failed. */
  readonly exitCode: 1 | 2;
}

// Commander words its own refusals ("error: unknown option '--x'"); they are re-worded into the
// shape of ours, "<flag or argument> <what is wrong>", so every refusal reads and parses alike.
// Its suggestion, when it has one, is kept.
function suggestion(message: string): string {
  const m = /\(Did you mean (.+)\?\)/.exec(message);
  return m === null ? "" : `; did you mean ${m[1]}?`;
}

function commandNames(program: Command): string {
  return program.commands.map((c) => c.name()).join(", ");
}

function argumentNames(command: Command): string {
  return command.registeredArguments.map((a) => `<${a.name()}>`).join(" ");
}

function commanderText(program: Command, e: CommanderError): string {
  const message = e.message.replace(/^error: /, "");
  switch (e.code) {
    case "commander.help":
      return `<command> is required: one of ${commandNames(program)}`;
    case "commander.unknownCommand": {
      const name = /unknown command '(.*)'/.exec(message)?.[1] ?? "";
      return `<command> ${JSON.stringify(name)} is not a command: one of ${commandNames(program)}${suggestion(message)}`;
    }
    case "commander.unknownOption": {
      const flag = /unknown option '(.*)'/.exec(message)?.[1];
      return flag === undefined ? message : `${flag} is not an option${suggestion(message)}`;
    }
    case "commander.missingArgument": {
      const name = /missing required argument '(.*)'/.exec(message)?.[1];
      return name === undefined ? message : `<${name}> is required`;
    }
    case "commander.optionMissingArgument": {
      const m = /option '(\S+)\s*(.*)' argument missing/.exec(message);
      return m === null ? message : `${m[1]} needs a value${m[2] === "" ? "" : ` ${m[2]}`}`;
    }
    case "commander.excessArguments": {
      const name = /too many arguments for '(.*)'/.exec(message)?.[1];
      const command = program.commands.find((c) => c.name() === name);
      if (command === undefined) return message;
      const extra = command.args[command.registeredArguments.length];
      return `${JSON.stringify(extra ?? "")} is one argument too many: ${command.name()} takes ${argumentNames(command)} (quote a path that has spaces)`;
    }
    default:
      return message;
  }
}

/**
 * The one line and exit code for anything a command throws, or null when commander already
 * printed what was asked (help). Bad input exits 2, a failed run 1; each module's own prefix
 * ("rollout-analytics: ", "rollout: ") gives way to the command's.
 */
export function cliFailure(program: Command, e: unknown): CliFailure | null {
  let failure: CliFailure;
  if (e instanceof CommanderError) {
    if (e.exitCode === 0) return null;
    failure = { text: commanderText(program, e), exitCode: 2 };
  } else if (e instanceof AnalyticsError) {
    failure = { text: e.message.replace(/^rollout-analytics: /, ""), exitCode: e.code === "INVALID_ARGUMENT" ? 2 : 1 };
  } else if (e instanceof RolloutError) {
    // The domain refuses only what the files held (the flags were checked before): a failed run.
    failure = { text: e.message.replace(/^rollout: /, ""), exitCode: 1 };
  } else {
    failure = { text: e instanceof Error ? e.message : String(e), exitCode: 1 };
  }
  return { ...failure, text: failure.text.replace(/\s*\n\s*/g, " ").trim() };
}
