import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCrashTest } from "./crash-harness.js";

// 100 restarts of a real server process take longer than the suite's default per-test bound (6-14 s each were measured on a 2-core machine busy with other test runs).
test("no acknowledged apply is lost and none is half-applied across 100 SIGKILLs of the server", { timeout: 2_400_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), "crs-crash-"));
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
  try {
    const report = await runCrashTest({ kills: 100, seed, dir, log: (l) => console.log(l) });
    console.log(`crash-test: seed ${seed}: ${JSON.stringify(report)}`);
    assert.equal(report.kills, 100, "every kill was delivered");
    assert.ok(report.acked > 0, "mutations were acknowledged between kills");
    assert.ok(report.replaysChecked > 0, "retries were checked");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
