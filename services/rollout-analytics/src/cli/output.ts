import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { CliIo } from "./io.js";

/** Output formats of the report commands. */
export type OutputFormat = "json" | "table" | "html";

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
