import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, repoRoot } from "@crs/runtime/testing";

test("Ctrl-C on npm start drains both services and exits 0, instead of the shells dying and pnpm reporting them failed", async () => {
  const script = (JSON.parse(readFileSync(join(repoRoot(), "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts[
    "start"
  ]!;
  const [install, ...rest] = script.split(" && ");
  assert.equal(install, "sh scripts/setup.sh", "the start script installs first");
  const dataDir = mkdtempSync(join(tmpdir(), "npm-start-"));
  // The script after its install step, which this workspace has already done, run as npm runs it.
  const child = spawn("sh", ["-c", rest.join(" && ")], {
    cwd: repoRoot(),
    env: {
      ...process.env,
      GRPC_ADDRESS: "127.0.0.1:0",
      METRICS_ADDRESS: "127.0.0.1:0",
      LOG_LEVEL: "info",
      CRS_STATE_DATA_DIR: dataDir,
      REDIS_URL: "redis://127.0.0.1:1",
    },
    // Its own process group, so a signal reaches every process in it, as a terminal's Ctrl-C does.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  try {
    const serving = () => output.includes('"msg":"crs-state serving"') && output.includes('"msg":"rollout-analytics serving"');
    assert.ok(await eventually(serving, 120_000, 100), `both services serve: ${output}`);
    process.kill(-child.pid!, "SIGINT");
    const [code, signal] = await exited;
    assert.equal(code, 0, `exit 0, not ${code ?? signal}: ${output}`);
    assert.equal(output.match(/"msg":"calls drained"/g)?.length, 2, `both services drained: ${output}`);
    assert.doesNotMatch(output, /ERR_PNPM|Failed/, "pnpm reports no failure");
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
});
