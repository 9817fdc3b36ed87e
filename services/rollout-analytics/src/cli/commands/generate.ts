import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { badField } from "../../errors.js";
import { writeCorpus } from "../../generate/index.js";
import { parseInstant, parseInteger, parseSize } from "../options.js";
import type { CliIo } from "../io.js";
import { entryKind } from "../scan-flags.js";

/**
 * Makes the corpus folder one level at a time, refusing as a bad `<dir>` a path under a file or one
 * that cannot be made. A recursive mkdir never returns where a file system refuses new folders with
 * ENOENT (as /proc does), so the levels are made here, each failing at once.
 */
function makeCorpusDir(io: CliIo, dir: string): string {
  const path = resolve(io.cwd, dir);
  const missing: string[] = [];
  let at = path;
  for (let kind = entryKind(at); kind === "missing" && dirname(at) !== at; kind = entryKind(at)) {
    missing.unshift(at);
    at = dirname(at);
  }
  if (entryKind(at) === "other") throw badField("<dir>", `${path} cannot be made: ${at} is not a folder`);
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") throw badField("<dir>", `${path} cannot be made (${code ?? "unknown error"})`);
    }
  }
  return path;
}

interface GenerateFlags {
  seed: string;
  size?: string;
  files?: string;
  from?: string;
  days: string;
  plantSecrets?: boolean;
  bigLines?: string;
}

/** `rollouts generate <dir>`: writes a seeded corpus of realistic rollouts. */
export function generateCommand(program: Command, io: CliIo): void {
  program
    .command("generate")
    .description("write a deterministic corpus of realistic rollouts (same seed, same bytes)")
    .argument("<dir>", "directory to write YYYY/MM/DD/rollout-*.jsonl files into")
    .option("--seed <n>", "seed of the generator", "1")
    .option("--size <bytes>", "stop once this much is written (e.g. 50MB, 1GiB)")
    .option("--files <n>", "stop after this many files")
    .option("--from <date>", "earliest session start (YYYY-MM-DD or RFC 3339; default 2026-03-01)")
    .option("--days <n>", "sessions start within this many days", "60")
    .option("--big-lines <share>", "share of files with one multi-megabyte line, 0..1 (default 0.02)")
    .option("--plant-secrets", "write PLANTED-SECRET strings into prompts, arguments, outputs, reasoning and errors")
    .action(async (dir: string, flags: GenerateFlags) => {
      if (flags.size === undefined && flags.files === undefined) throw badField("--size", "or --files is required");
      const bigLineShare = flags.bigLines === undefined ? undefined : Number(flags.bigLines);
      if (bigLineShare !== undefined && !(bigLineShare >= 0 && bigLineShare <= 1))
        throw badField("--big-lines", "must be a share between 0 and 1");
      const options = {
        seed: parseInteger("--seed", flags.seed, 0),
        ...(flags.size === undefined ? {} : { bytes: parseSize("--size", flags.size) }),
        ...(flags.files === undefined ? {} : { files: parseInteger("--files", flags.files, 1) }),
        ...(flags.from === undefined ? {} : { fromMs: parseInstant("--from", flags.from) }),
        spanDays: parseInteger("--days", flags.days, 1, 36500),
        plantSecrets: flags.plantSecrets === true,
        ...(bigLineShare === undefined ? {} : { bigLineShare }),
      };
      // Every flag is checked before the folder is made, so a refused command leaves nothing behind.
      const result = await writeCorpus({ dir: makeCorpusDir(io, dir), ...options });
      io.err(`generated ${result.files} rollouts, ${result.bytes} bytes (${result.tornTails} with a torn tail) in ${dir}\n`);
    });
}
