// `rollouts usage` beside ccusage 20.0.24 (`ccusage codex daily`) on the same generated corpus, and
// beside a baseline measured in the same run: reading every file whole and JSON.parse-ing each
// line. ccusage is installed into the temp directory (never a project dependency); when npm
// cannot fetch it, its line is skipped with a message. USAGE_BENCH_BYTES sets the corpus size.
// The machine may be shared: every command runs USAGE_BENCH_RUNS times (default 5), the runs of
// the different commands interleaved, and the medians are compared.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { writeCorpus } from "../generate/index.js";

const run = promisify(execFile);
const SERVICE = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const BYTES = Number(process.env["USAGE_BENCH_BYTES"] ?? 100e6);
const CCUSAGE_VERSION = "20.0.24";
const HOME = join(tmpdir(), `crs-usage-bench-${BYTES}`);
const RUNS = Math.max(1, Number(process.env["USAGE_BENCH_RUNS"] ?? 5));

const BASELINE = `
const { readdirSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
let tokens = 0;
for (const e of readdirSync(process.argv[1], { recursive: true, withFileTypes: true })) {
  if (!e.isFile() || !e.name.endsWith(".jsonl")) continue;
  for (const line of readFileSync(join(e.parentPath, e.name), "utf8").split("\\n")) {
    try { const v = JSON.parse(line); if (v.payload && v.payload.type === "token_count") tokens += 1; } catch {}
  }
}
console.log(tokens);
`;

async function timed(file: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  const { stdout } = await run(file, args, { cwd: SERVICE, env: { ...process.env, TZ: "UTC", ...env }, maxBuffer: 256 * 1024 * 1024 });
  return { ms: performance.now() - started, stdout };
}

async function ccusageBin(): Promise<string | null> {
  const prefix = join(tmpdir(), `crs-ccusage-${CCUSAGE_VERSION}`);
  const bin = join(prefix, "node_modules", ".bin", "ccusage");
  if (existsSync(bin)) return bin;
  try {
    await mkdir(prefix, { recursive: true });
    await run("npm", ["install", "--prefix", prefix, "--no-save", "--no-fund", "--no-audit", `ccusage@${CCUSAGE_VERSION}`]);
    return existsSync(bin) ? bin : null;
  } catch (e) {
    console.log(
      `ccusage ${CCUSAGE_VERSION} could not be installed (${e instanceof Error ? e.message.split("\n")[0] : String(e)}); its line is skipped`,
    );
    return null;
  }
}

// The command runs its bundle (dist/cli.js and its workers), so the bench builds it from the
// current sources first: a stale bundle would measure old code.
async function buildCli(): Promise<void> {
  await run(process.execPath, ["--import", "tsx", join(SERVICE, "../../scripts/build.ts"), "rollout-analytics"], { cwd: SERVICE });
}

async function main(): Promise<void> {
  const root = join(HOME, "sessions");
  if (!existsSync(join(HOME, ".complete"))) {
    console.log(`generating a ${(BYTES / 1e6).toFixed(0)} MB corpus in ${root} (kept for later runs)`);
    await writeFile(
      join(await mkdir(HOME, { recursive: true }).then(() => HOME), ".complete"),
      JSON.stringify(await writeCorpus({ dir: root, seed: 11, bytes: BYTES })),
    );
  }
  await buildCli();
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(" ");
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, node ${process.version}, load ${load()}`);
  const bin = await ccusageBin();
  const cacheDir = join(HOME, "cache");
  const usage = (...extra: string[]) => ["bin/rollouts.js", "usage", root, "--now", "2026-06-01", ...extra];
  // The warm runs read what this first run cached.
  await timed(process.execPath, usage("--cache-dir", cacheDir));
  const ms = { baseline: [] as number[], cold: [] as number[], warm: [] as number[], cc: [] as number[] };
  let oursTotal = 0;
  let ccTotal = 0;
  for (let i = 0; i < RUNS; i += 1) {
    ms.baseline.push((await timed(process.execPath, ["-e", BASELINE, root])).ms);
    const cold = await timed(process.execPath, usage("--no-cache"));
    ms.cold.push(cold.ms);
    oursTotal = (JSON.parse(cold.stdout) as { totals: { total_tokens: number } }).totals.total_tokens;
    ms.warm.push((await timed(process.execPath, usage("--cache-dir", cacheDir))).ms);
    if (bin !== null) {
      const cc = await timed(bin, ["codex", "daily", "--json", "--offline"], { CODEX_HOME: HOME });
      ms.cc.push(cc.ms);
      ccTotal = (JSON.parse(cc.stdout) as { totals: { totalTokens: number } }).totals.totalTokens;
    }
  }
  const median = (xs: number[]): number => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };
  const span = (xs: number[]): string =>
    `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
  const mb = BYTES / 1e6;
  const rate = (xs: number[]): string => `${(mb / (median(xs) / 1000)).toFixed(1)} MB/s`;
  const base = median(ms.baseline);
  console.log(`${RUNS} runs each, interleaved; load after: ${load()}`);
  console.log(`baseline read + JSON.parse every line: ${span(ms.baseline)}, ${rate(ms.baseline)}`);
  console.log(
    `rollouts usage (cold, no cache):       ${span(ms.cold)}, ${rate(ms.cold)}, ${(median(ms.cold) / base).toFixed(2)}× baseline`,
  );
  console.log(`rollouts usage (warm per-file cache):  ${span(ms.warm)}, ${(median(ms.warm) / base).toFixed(2)}× baseline`);
  if (bin === null) return;
  const cc = median(ms.cc);
  console.log(
    `ccusage ${CCUSAGE_VERSION} codex daily:            ${span(ms.cc)}, ${rate(ms.cc)}, ${(cc / base).toFixed(2)}× baseline; rollouts usage / ccusage = ${(median(ms.cold) / cc).toFixed(2)} cold, ${(median(ms.warm) / cc).toFixed(2)} warm`,
  );
  console.log(`total tokens: rollouts ${oursTotal}, ccusage ${ccTotal} (${oursTotal === ccTotal ? "equal" : "DIFFERENT"})`);
}

await main();
