import { relative, resolve } from "node:path";
import { decideRetention, isFresh, retentionJson } from "@crs/domain/rollout";
import type { Command } from "commander";
import { walkRollouts } from "../../walk/index.js";
import type { CliIo } from "../io.js";
import { parseChoice, parseInstant, parseInteger, parseSize } from "../options.js";
import { checkOut, emit, jsonText } from "../output.js";
import { reportTable } from "../render/table.js";
import { checkStoreDir } from "../scan-flags.js";

interface RetentionFlags {
  now?: string;
  freshMins: string;
  activeDays: string;
  warmDays: string;
  cap?: string;
  format: string;
  out?: string;
}

const DAY_MS = 86_400_000;

/** `rollouts retention <dir>`: which rollouts a retention policy would keep or expire (a plan; nothing is deleted). */
export function retentionCommand(program: Command, io: CliIo): void {
  program
    .command("retention")
    .description("plan retention for a store: active, warm and expired rollouts under a byte cap (nothing is deleted)")
    .argument("<dir>", "store root")
    .option("--now <time>", "the plan's clock (default: the current time)")
    .option("--fresh-mins <n>", "modified within this many minutes: treated as live", "120")
    .option("--active-days <n>", "modified within this many days: active", "1")
    .option("--warm-days <n>", "modified within this many days: kept as warm evidence", "30")
    .option("--cap <size>", "raw bytes to keep at most (e.g. 2GB); expires the oldest warm rollouts first")
    .option("--format <format>", "json or table", "json")
    .option("--out <file>", "write the plan to this file instead of stdout")
    .action(async (dir: string, flags: RetentionFlags) => {
      checkOut(io, flags.out);
      checkStoreDir(io, dir);
      const format = parseChoice("--format", flags.format, ["json", "table"] as const);
      const nowMs = flags.now === undefined ? Date.now() : parseInstant("--now", flags.now);
      const freshWithinMs = parseInteger("--fresh-mins", flags.freshMins, 0, 52_560_000) * 60_000;
      const activeWithinMs = parseInteger("--active-days", flags.activeDays, 0, 36500) * DAY_MS;
      const warmWithinMs = parseInteger("--warm-days", flags.warmDays, 0, 36500) * DAY_MS;
      const rawBytesCap = flags.cap === undefined ? 0 : parseSize("--cap", flags.cap);
      const root = resolve(io.cwd, dir);
      const walk = await walkRollouts(root);
      const sessions = walk.files.map((f) => ({
        id: relative(root, f.path),
        bytes: f.size,
        modTimeMs: f.mtimeMs,
        live: isFresh({ mtimeMs: f.mtimeMs, nowMs, freshWithinMs }),
      }));
      const plan = decideRetention(sessions, { nowMs, activeWithinMs, warmWithinMs, rawBytesCap });
      // Byte figures are exact bigints; they are printed as plain numbers with every digit.
      const exact = retentionJson(plan);
      const readable = JSON.parse(exact) as unknown;
      const safe = JSON.stringify(readable) === exact;
      await emit(io, format === "json" ? (safe ? jsonText(readable) : exact) : reportTable("retention plan", readable), flags.out);
    });
}
