// The command as a process: what it does when whoever reads its output goes away.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { REAL_DIR, REAL_SKIP } from "./test-support.js";

const MAIN = join(dirname(fileURLToPath(import.meta.url)), "main.ts");

test("a reader that closes the pipe early ends the scan quietly with status 141, not an unhandled EPIPE stack trace", {
  skip: REAL_SKIP,
}, async () => {
  const args = ["--import", "tsx", MAIN, "scan", REAL_DIR, "--now", "2026-07-01T00:00:00Z", "--no-cache", "--workers", "1"];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy(); // the reader is gone before the report is written
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
  const code = await new Promise<number | null>((done) => child.once("close", done));
  assert.equal(code, 141, stderr);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled|at /, "no stack trace");
});
