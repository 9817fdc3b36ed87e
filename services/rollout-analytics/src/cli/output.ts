import { reportJson } from "@crs/domain/rollout";
import { closeSync, openSync, rmSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { badField, reportNotWritten } from "../errors.js";
import type { CliIo } from "./io.js";

/** Output formats of the report commands. */
export type OutputFormat = "json" | "table" | "html";

/**
 * Refuses an `--out` that cannot be written before any work is done: its folder must exist, the
 * path must not be a folder, and it must open for writing. A scan of gigabytes should not end in
 * a failed write.
 */
export function checkOut(io: CliIo, out: string | undefined): void {
  if (out === undefined) return;
  if (out.trim() === "") throw badField("--out", "must name a file");
  const path = resolve(io.cwd, out);
  if (statSync(dirname(path), { throwIfNoEntry: false })?.isDirectory() !== true)
    throw badField("--out", `the folder of ${path} does not exist`);
  const existing = statSync(path, { throwIfNoEntry: false });
  if (existing?.isDirectory() === true) throw badField("--out", `${path} is a folder`);
  // Opening for appending changes nothing in a file that exists, and is the one check that also
  // sees read-only mounts and file systems that take no new files, which permission bits do not tell.
  try {
    closeSync(openSync(path, "a"));
  } catch (e) {
    throw badField("--out", `${path} cannot be written (${(e as NodeJS.ErrnoException).code ?? "unknown error"})`);
  }
  if (existing === undefined) rmSync(path, { force: true });
}

/** Writes a rendered report to `out` (a file, relative to the working directory) or to stdout. */
export async function emit(io: CliIo, text: string, out: string | undefined): Promise<void> {
  const body = text.endsWith("\n") ? text : `${text}\n`;
  if (out === undefined) {
    io.out(body);
    return;
  }
  const path = resolve(io.cwd, out);
  try {
    await writeFile(path, body);
  } catch (e) {
    // Past the up-front check only the write itself can fail (a full disk): say where and why.
    throw reportNotWritten(path, (e as NodeJS.ErrnoException).code ?? "unknown error", e);
  }
  io.err(`wrote ${path}\n`);
}

/** JSON with two-space indent and map keys in byte order, as the reference prints its reports. */
export function jsonText(value: unknown): string {
  return reportJson(value, 2);
}
