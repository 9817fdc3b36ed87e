import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { isFresh, rolloutAnalyticsJson } from "@crs/domain/rollout";
import type { Command } from "commander";
import { badField } from "../../errors.js";
import { foldRolloutFile } from "../../reader/index.js";
import type { CliIo } from "../io.js";
import { parseChoice, parseInstant, parseInteger } from "../options.js";
import { checkOut, emit, jsonText } from "../output.js";
import { reportTable } from "../render/table.js";

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
    .argument("<file>", "a rollout-*.jsonl file")
    .option("--now <time>", "the clock freshness is judged by (default: the current time)")
    .option("--fresh-mins <n>", "modified within this many minutes: it may still be running", "120")
    .option("--format <format>", "json or table", "json")
    .option("--out <file>", "write the report to this file instead of stdout")
    .action(async (file: string, flags: RolloutFlags) => {
      checkOut(io, flags.out);
      const format = parseChoice("--format", flags.format, ["json", "table"] as const);
      const now = flags.now === undefined ? Date.now() : parseInstant("--now", flags.now);
      const freshWithinMs = parseInteger("--fresh-mins", flags.freshMins, 0, 52_560_000) * 60_000;
      const path = resolve(io.cwd, file);
      const info = await stat(path).catch(() => null);
      if (info === null || !info.isFile()) throw badField("<file>", `must be a readable rollout file (${file})`);
      const { census, fold } = await foldRolloutFile(path);
      const fresh = isFresh({ mtimeMs: info.mtimeMs, nowMs: now, freshWithinMs });
      const report = rolloutAnalyticsJson(fold.finish({ meta: census.meta, fresh }).analytics);
      await emit(io, format === "json" ? jsonText(report) : reportTable("rollout", report), flags.out);
    });
}
