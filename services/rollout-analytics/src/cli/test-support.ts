// Helpers for the CLI's tests: an in-memory CliIo and the real rollouts beside the project.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliIo } from "./io.js";

/** Standard input that gives `chunks`, one at a time. */
export async function* chunksOf(...chunks: Uint8Array[]): AsyncGenerator<Uint8Array, void, undefined> {
  for (const chunk of chunks) yield chunk;
}

/** A CliIo that keeps what was written, whose standard input gives `stdin` (by default nothing). */
export function captureIo(cwd = process.cwd(), stdin: AsyncIterable<Uint8Array> = chunksOf()): CliIo & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    errIsTty: false,
    cwd,
    stdin: () => stdin,
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "pnpm-workspace.yaml")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** The real rollouts kept beside the project (or CODEX_ROLLOUTS_DIR). */
export const REAL_DIR = process.env["CODEX_ROLLOUTS_DIR"] ?? resolve(repoRoot(), "..", "shared", "codex-rollouts-real");

/** A skip message when the real rollouts are absent, else false. */
export const REAL_SKIP: string | false = existsSync(REAL_DIR) ? false : `real rollouts not found at ${REAL_DIR} (set CODEX_ROLLOUTS_DIR)`;
