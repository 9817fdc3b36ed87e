// Helpers for the CLI's tests: an in-memory CliIo and the real rollouts beside the project.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliIo } from "./io.js";

/** A CliIo that keeps what was written. */
export function captureIo(cwd = process.cwd()): CliIo & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    errIsTty: false,
    cwd,
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
