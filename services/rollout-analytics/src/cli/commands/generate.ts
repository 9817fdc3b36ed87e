import type { Command } from "commander";
import { badField } from "../../errors.js";
import { writeCorpus } from "../../generate/index.js";
import { parseInstant, parseInteger, parseSize } from "../options.js";
import type { CliIo } from "../io.js";

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
      const result = await writeCorpus({
        dir,
        seed: parseInteger("--seed", flags.seed, 0),
        ...(flags.size === undefined ? {} : { bytes: parseSize("--size", flags.size) }),
        ...(flags.files === undefined ? {} : { files: parseInteger("--files", flags.files, 1) }),
        ...(flags.from === undefined ? {} : { fromMs: parseInstant("--from", flags.from) }),
        spanDays: parseInteger("--days", flags.days, 1, 36500),
        plantSecrets: flags.plantSecrets === true,
        ...(bigLineShare === undefined ? {} : { bigLineShare }),
      });
      io.err(`generated ${result.files} rollouts, ${result.bytes} bytes (${result.tornTails} with a torn tail) in ${dir}\n`);
    });
}
