import { statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { badField } from "../errors.js";
import type { CliIo } from "./io.js";

/** Output formats of the report commands. */
export type OutputFormat = "json" | "table" | "html";

/**
 * Refuses an `--out` that cannot be written before any work is done: its folder must exist and
 * the path must not be a folder. A scan of gigabytes should not end in a failed write.
 */
export function checkOut(io: CliIo, out: string | undefined): void {
  if (out === undefined) return;
  const path = resolve(io.cwd, out);
  if (statSync(dirname(path), { throwIfNoEntry: false })?.isDirectory() !== true)
    throw badField("--out", `the folder of ${path} does not exist`);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true) throw badField("--out", `${path} is a folder`);
}

/** Writes a rendered report to `out` (a file, relative to the working directory) or to stdout. */
export async function emit(io: CliIo, text: string, out: string | undefined): Promise<void> {
  const body = text.endsWith("\n") ? text : `${text}\n`;
  if (out === undefined) {
    io.out(body);
    return;
  }
  const path = resolve(io.cwd, out);
  await writeFile(path, body);
  io.err(`wrote ${path}\n`);
}

/** JSON with two-space indent, as the reference prints its reports. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
