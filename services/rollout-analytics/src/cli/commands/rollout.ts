import { isFresh, rolloutAnalyticsJson } from "@crs/domain/rollout";
import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { parseChoice, parseInstant, parseInteger } from "../options.js";
import { checkOut, emit, jsonText } from "../output.js";
import { reportTable } from "../render/table.js";
import { foldRolloutInput, rolloutInput, rolloutRecords } from "../rollout-input.js";

interface RolloutFlags {
  now?: string;
  freshMins: string;
  format: string;
  out?: string;
}

/** `rollouts rollout <file>`: the analytics report of one rollout (tasks, calls, behaviour). */
export function rolloutCommand(program: Command, io: CliIo): void {
  program
    .command("rollout")
    .description("analyse one rollout file: its tasks, tool outcomes, critical paths and behaviour")
    .argument("<file>", "a rollout file of any name, a FIFO or character device such as <(zcat x.jsonl.gz), or - for standard input")
    .option("--now <time>", "the clock freshness is judged by (default: the current time)")
    .option(
      "--fresh-mins <n>",
      "modified within this many minutes: it may still be running; a stream, whose own modification time is when it was piped, is judged by the time of its latest record instead",
      "120",
    )
    .option("--format <format>", "json or table", "json")
    .option("--out <file>", "write the report to this file instead of stdout")
    .action(async (file: string, flags: RolloutFlags) => {
      checkOut(io, flags.out);
      const format = parseChoice("--format", flags.format, ["json", "table"] as const);
      const now = flags.now === undefined ? Date.now() : parseInstant("--now", flags.now);
      const freshWithinMs = parseInteger("--fresh-mins", flags.freshMins, 0, 52_560_000) * 60_000;
      const input = await rolloutInput(io, file);
      const { census, fold, latestRecordMs } = await foldRolloutInput(input);
      const modifiedMs = input.mtimeMs ?? latestRecordMs;
      const fresh = modifiedMs !== null && isFresh({ mtimeMs: modifiedMs, nowMs: now, freshWithinMs });
      const report = rolloutAnalyticsJson(fold.finish({ meta: census.meta, fresh }).analytics);
      // The report of a file that is no rollout is empty, as a scan counts it; said, so a mistyped path is noticed.
      if (rolloutRecords(census) === 0) io.err(`rollouts: warning: ${file} holds no rollout records\n`);
      await emit(io, format === "json" ? jsonText(report) : reportTable("rollout", report), flags.out);
    });
}
