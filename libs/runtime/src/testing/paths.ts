import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

let root: string | undefined;

/** The repository root (the folder holding pnpm-workspace.yaml), for spawning services and reading fixtures. */
export function repoRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "pnpm-workspace.yaml")) && dirname(dir) !== dir) dir = dirname(dir);
  root = dir;
  return dir;
}

/** Where the real Codex rollouts are kept: `CODEX_ROLLOUTS_DIR`, else `../shared/codex-rollouts-real` beside the repository. */
export const ROLLOUTS_DIR = process.env["CODEX_ROLLOUTS_DIR"] ?? resolve(repoRoot(), "..", "shared", "codex-rollouts-real");

/** The `skip` option of tests that need the real rollouts: false when they are there, else why the test is skipped. */
export const SKIP_REAL: string | false = existsSync(ROLLOUTS_DIR)
  ? false
  : `real rollouts not found at ${ROLLOUTS_DIR} (set CODEX_ROLLOUTS_DIR)`;
