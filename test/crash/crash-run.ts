/** `pnpm crash-test -- --kills N [--seed S]`: the crash test for longer runs than CI's. */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runCrashTest } from "./crash-harness.js";

// pnpm passes the "--" that separates its own options through to the script.
const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "--"),
  options: { kills: { type: "string", default: "1000" }, seed: { type: "string" } },
  allowPositionals: true,
});
const kills = Number(values.kills);
const seed = values.seed === undefined ? Date.now() % 1_000_000 : Number(values.seed);
const dir = await mkdtemp(join(tmpdir(), "crs-crash-"));
try {
  const started = Date.now();
  const report = await runCrashTest({ kills, seed, dir, log: (l) => console.log(l) });
  console.log(`crash-test: seed ${seed}: ${JSON.stringify(report)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
