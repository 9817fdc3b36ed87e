import { resolve } from "node:path";
import {
  USAGE_GROUPINGS,
  usageReport,
  usageRowModels,
  type TokenFigures,
  type UsageGrouping,
  type UsagePartial,
  type UsageReportJson,
} from "@crs/domain/rollout";
import { type Command, Option } from "commander";
import { badField } from "../../errors.js";
import { usageCorpus } from "../../usage/index.js";
import type { CliIo } from "../io.js";
import { parseChoice, parseInteger } from "../options.js";
import { checkOut, emit, jsonText } from "../output.js";
import { loadPricing } from "../pricing.js";
import { scanProgressView } from "../progress.js";
import { textTable } from "../render/table.js";
import { displayNumber } from "../render/format-value.js";
import { checkCacheDir, checkStoreDir, cwdScope, warnCacheNotWritten, withReadFlags, type ReadFlags } from "../scan-flags.js";

interface UsageFlags extends ReadFlags {
  now?: string;
  freshMins?: string;
  by: string;
  pricing?: string;
  format: string;
  out?: string;
}

// Money in cents, always two decimals: the general rounding keeps one decimal from 100 on and
// drops trailing zeros, which shows $1,234.57 as 1,234.6 and $129.03 as 129.
const cents = (c: number | null): string =>
  c === null ? "—" : c.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Most models a table row names; the JSON keeps every one. */
const TABLE_MODELS = 3;

/**
 * A row's models for the table: the {@link TABLE_MODELS} with the most tokens, most first (ties by
 * name), and how many more there are, so a row of many models keeps the table readable.
 */
function modelsCell(models: ReadonlyMap<string, TokenFigures> | undefined): string {
  const ranked = [...(models ?? [])]
    .sort(([a, fa], [b, fb]) => fb.total - fa.total || (a < b ? -1 : a > b ? 1 : 0))
    .map(([model]) => model);
  const shown = ranked.slice(0, TABLE_MODELS).join(", ");
  return ranked.length > TABLE_MODELS ? `${shown} +${ranked.length - TABLE_MODELS} more` : shown;
}

function usageTable(r: UsageReportJson, byModel: ReadonlyMap<string, ReadonlyMap<string, TokenFigures>>): string {
  const rows = r.rows.map((row) => [
    row.key,
    displayNumber(row.input_tokens),
    displayNumber(row.cached_input_tokens),
    displayNumber(row.output_tokens),
    displayNumber(row.reasoning_output_tokens),
    displayNumber(row.total_tokens),
    cents(row.cost),
    modelsCell(byModel.get(row.key)),
  ]);
  const t = r.totals;
  rows.push([
    "total",
    displayNumber(t.input_tokens),
    displayNumber(t.cached_input_tokens),
    displayNumber(t.output_tokens),
    displayNumber(t.reasoning_output_tokens),
    displayNumber(t.total_tokens),
    cents(t.cost),
    "",
  ]);
  const head = [r.by, "input", "cached input", "output", "reasoning", "total", `cost ${r.pricing.currency}`, "models"];
  const notes = [
    `${r.by === "day" || r.by === "month" ? "days in UTC; " : ""}prices as of ${r.pricing.as_of}${r.pricing.source === "" ? "" : ` (${r.pricing.source})`}`,
  ];
  if (t.unpriced_models.length > 0) notes.push(`no price for: ${t.unpriced_models.join(", ")} (their tokens are not in the cost)`);
  return `${textTable(head, rows)}\n\n${notes.join("\n")}`;
}

// Usage reads only the lines that carry it (the usage reader), not the whole scan.
async function readUsage(io: CliIo, dir: string, flags: ReadFlags): Promise<UsagePartial> {
  const view = scanProgressView(io);
  try {
    const { usage, cacheNotWritten } = await usageCorpus({
      root: resolve(io.cwd, dir),
      ...cwdScope(io, flags),
      limit: parseInteger("--max", flags.max, 0),
      ...(flags.workers === undefined ? {} : { workers: parseInteger("--workers", flags.workers, 1, 256) }),
      cacheDir: flags.cache ? (flags.cacheDir === undefined ? undefined : resolve(io.cwd, flags.cacheDir)) : false,
      onProgress: (p) => view.update(p),
    });
    warnCacheNotWritten(io, cacheNotWritten);
    return usage;
  } finally {
    view.stop();
  }
}

/** `rollouts usage <dir>`: tokens and cost by day, month, model or session. */
export function usageCommand(program: Command, io: CliIo): void {
  withReadFlags(
    program
      .command("usage")
      .description("token usage (input, cached input, output, reasoning) and cost by day, month, model or session")
      .argument("<dir>", "store root, e.g. ~/.codex/sessions"),
  )
    // The scan's clock flags, taken only to refuse them with the reason: no usage figure depends
    // on the clock (ccusage's nearest flags, --since and --until, filter days instead).
    .addOption(new Option("--now <time>").hideHelp())
    .addOption(new Option("--fresh-mins <n>").hideHelp())
    .option("--by <grouping>", `one of ${USAGE_GROUPINGS.join(", ")} (days and months in UTC)`, "day")
    .option("--pricing <file>", "price list JSON to use instead of the shipped one")
    .option("--format <format>", "json or table", "json")
    .option("--out <file>", "write the report to this file instead of stdout")
    .action(async (dir: string, flags: UsageFlags) => {
      checkOut(io, flags.out);
      checkStoreDir(io, dir);
      checkCacheDir(io, flags);
      for (const [flag, value] of [
        ["--now", flags.now],
        ["--fresh-mins", flags.freshMins],
      ] as const) {
        if (value !== undefined) throw badField(flag, "is a scan flag: usage figures do not depend on the clock or on freshness");
      }
      const by = parseChoice<UsageGrouping>("--by", flags.by, USAGE_GROUPINGS);
      const format = parseChoice("--format", flags.format, ["json", "table"] as const);
      const pricing = await loadPricing(io.cwd, flags.pricing);
      const usage = await readUsage(io, dir, flags);
      const report = usageReport(usage, by, pricing);
      await emit(io, format === "json" ? jsonText(report) : usageTable(report, usageRowModels(usage, by)), flags.out);
    });
}
