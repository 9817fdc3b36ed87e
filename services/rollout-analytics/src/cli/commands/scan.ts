import type { Command } from "commander";
import { badField } from "../../errors.js";
import type { CliIo } from "../io.js";
import { parseChoice, parseInteger } from "../options.js";
import { checkOut, emit, jsonText, type OutputFormat } from "../output.js";
import { renderReportPage } from "../render/html.js";
import { reportTable } from "../render/table.js";
import { corpusReports, REPORT_KINDS, type ReportKind } from "../reports.js";
import { checkCacheDir, checkStoreDir, runScan, withScanFlags, type ScanFlags } from "../scan-flags.js";

interface ScanCommandFlags extends ScanFlags {
  report: string;
  top: string;
  format: string;
  out?: string;
}

const REPORT_CHOICES = ["all", ...REPORT_KINDS] as const;

// `n` and its noun, singular for one: "1 file", "2 files".
function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `rollouts scan <dir>`: corpus reports (lifecycle, analytics, health, reconcile, error classes, post-tool). */
export function scanCommand(program: Command, io: CliIo): void {
  withScanFlags(
    program
      .command("scan")
      .description("scan a rollout store into lifecycle, analytics, health, reconcile, error-class and post-tool reports")
      .argument("<dir>", "store root, e.g. ~/.codex/sessions"),
  )
    .option("--report <kind>", `one of ${REPORT_CHOICES.join(", ")}`, "all")
    .option("--top <n>", "rows kept in ranked lists (slowest tasks, sessions)", "10")
    .option("--format <format>", "json, table or html", "json")
    .option("--out <file>", "write the report to this file instead of stdout")
    .action(async (dir: string, flags: ScanCommandFlags) => {
      checkOut(io, flags.out);
      checkStoreDir(io, dir);
      checkCacheDir(io, flags);
      const report = parseChoice("--report", flags.report, REPORT_CHOICES);
      const format = parseChoice<OutputFormat>("--format", flags.format, ["json", "table", "html"]);
      // The reference reads 0 or less as its default, 10; here that is refused (0 could as well be
      // read as "no rows" or "every row") and the way to the default is named.
      if (/^\s*(?:-\d+|0+)\s*$/.test(flags.top)) throw badField("--top", "must be at least 1; leave it out for the default, 10");
      const top = parseInteger("--top", flags.top, 1, 10_000);
      // The HTML page always draws every report; JSON and tables print what was asked.
      const kinds: readonly ReportKind[] = report === "all" || format === "html" ? REPORT_KINDS : [report];
      const { result, root, now } = await runScan(io, dir, flags, top);
      const reports = corpusReports(result.partial, kinds, { root, top });
      const files = result.files;
      const dirs =
        (files.unreadableDirs > 0 ? `; ${counted(files.unreadableDirs, "directory", "directories")} could not be listed` : "") +
        (files.linksOutsideRoot > 0 ? `; ${counted(files.linksOutsideRoot, "link", "links")} outside the root not followed` : "");
      io.err(
        `scanned ${counted(files.scanned, "file", "files")} (${files.reused} reused from cache, ${files.outOfScope} out of scope, ${files.unreadable} unreadable), ${files.bytes} bytes (${files.reusedBytes} reused)${dirs}\n`,
      );
      if (format === "html") {
        await emit(io, renderReportPage({ root, now, reports, files }), flags.out);
        return;
      }
      if (format === "table") {
        await emit(io, kinds.map((k) => reportTable(k, reports[k])).join("\n\n"), flags.out);
        return;
      }
      await emit(io, jsonText(report === "all" ? reports : reports[report]), flags.out);
    });
}
