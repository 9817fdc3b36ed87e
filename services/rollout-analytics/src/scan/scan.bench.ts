// End-to-end corpus scan, cold start included, beside a plain readline + JSON.parse of every
// line of the same files, measured in the same run. The corpus is generated once (seeded) and
// kept in the temp directory; SCAN_BENCH_BYTES sets its size (default 1 GiB). The baseline, the
// cold scan and the rescan run in turn SCAN_BENCH_RUNS times (default 3): a single run of either
// side varies by a tenth on a shared machine, so medians are printed with their spread.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeCorpus } from "../generate/index.js";

const SERVICE = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const BYTES = Number(process.env["SCAN_BENCH_BYTES"] ?? 1024 ** 3);
const SEED = 11;
const NOW = Date.UTC(2026, 5, 1);
const RUNS = Number(process.env["SCAN_BENCH_RUNS"] ?? 3);

// Prints the process's peak RSS and CPU time (all threads) on stderr as it exits. CPU time says
// what the work costs when other processes share the cores and wall time stretches.
const PEAK_RSS = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('\\npeak-rss-kb ' + u.maxRSS + ' cpu-us ' + (u.userCPUTime + u.systemCPUTime) + '\\n'); });",
)}`;

// The baseline: plain JavaScript, no project code, every line through JSON.parse.
const BASELINE = `
import { readdirSync, createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { join } from "node:path";
let lines = 0;
for (const e of readdirSync(process.argv[1], { recursive: true, withFileTypes: true })) {
  if (!e.isFile() || !e.name.endsWith(".jsonl")) continue;
  const input = createReadStream(join(e.parentPath ?? e.path, e.name));
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lines += 1;
    try { JSON.parse(line); } catch {}
  }
}
console.log(lines);
`;

interface Run {
  readonly ms: number;
  readonly peakMb: number;
  readonly cpuS: number;
  readonly stderr: string;
}

function run(args: readonly string[]): Promise<Run> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", PEAK_RSS, ...args], { cwd: SERVICE, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("exit", (code) => {
      const ms = performance.now() - started;
      const peak = /peak-rss-kb (\d+) cpu-us (\d+)/.exec(stderr);
      if (code !== 0 || peak?.[1] === undefined) fail(new BenchFailure(`${args.join(" ")} exited ${String(code)}: ${stderr.slice(-2000)}`));
      else done({ ms, peakMb: Number(peak[1]) / 1024, cpuS: Number(peak[2]) / 1e6, stderr });
    });
  });
}

class BenchFailure extends Error {}

// The scan as a user runs it: the CLI, its report written nowhere.
function scanArgs(root: string, cacheDir: string): string[] {
  return ["bin/rollouts.cjs", "scan", root, "--now", String(NOW), "--cache-dir", cacheDir, "--format", "json", "--out", "/dev/null"];
}

async function corpus(): Promise<string> {
  const dir = join(tmpdir(), `crs-scan-bench-${SEED}-${BYTES}`);
  if (existsSync(join(dir, ".complete"))) return dir;
  await rm(dir, { recursive: true, force: true });
  console.log(`generating a ${(BYTES / 1024 ** 2).toFixed(0)} MiB corpus in ${dir} (kept for later runs)`);
  const made = await writeCorpus({ dir, seed: SEED, bytes: BYTES });
  await writeFile(join(dir, ".complete"), JSON.stringify(made));
  return dir;
}

// The CLI runs its bundle, so the bench builds it from the current sources first.
function buildCli(): void {
  const built = spawnSync(process.execPath, ["--import", "tsx", join(SERVICE, "../../scripts/build.ts"), "rollout-analytics"], {
    stdio: "ignore",
  });
  if (built.status !== 0) throw new BenchFailure(`the build exited ${String(built.status)}`);
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

// Median and spread of one side's runs: wall time, peak RSS, CPU time.
function summary(runs: readonly Run[]): string {
  const s = runs.map((r) => r.ms / 1000);
  const mb = runs.map((r) => r.peakMb);
  return (
    `median ${median(s).toFixed(2)} s (${Math.min(...s).toFixed(2)}–${Math.max(...s).toFixed(2)}), ` +
    `peak RSS median ${median(mb).toFixed(0)} MB (${Math.min(...mb).toFixed(0)}–${Math.max(...mb).toFixed(0)}), ` +
    `cpu median ${median(runs.map((r) => r.cpuS)).toFixed(2)} s`
  );
}

// Each round's ratio of one side to the baseline run just before it, and their median.
function ratios(rounds: readonly { base: Run; side: Run; of: (r: Run) => number }[]): string {
  const each = rounds.map(({ base, side, of }) => of(side) / of(base));
  return `${each.map((r) => `${r.toFixed(2)}x`).join(" ")}, median ${median(each).toFixed(2)}x`;
}

async function bench(): Promise<void> {
  const root = await corpus();
  buildCli();
  const cpu = cpus()[0]?.model ?? "unknown cpu";
  console.log(
    `machine: ${availableParallelism()} cores (${cpu}), node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  // One untimed pass warms the page cache for both sides.
  await run(["--input-type=module", "-e", BASELINE, root]);
  const rounds: { base: Run; cold: Run; warm: Run }[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const cacheDir = await mkdtemp(join(tmpdir(), "crs-scan-bench-cache-"));
    try {
      const base = await run(["--input-type=module", "-e", BASELINE, root]);
      const cold = await run(scanArgs(root, cacheDir));
      const warm = await run(scanArgs(root, cacheDir));
      rounds.push({ base, cold, warm });
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  }
  const wall = (r: Run): number => r.ms;
  const cpuTime = (r: Run): number => r.cpuS;
  const last = rounds.at(-1);
  const reuse = last === undefined ? null : /scanned (\d+) files \((\d+) reused/.exec(last.warm.stderr);
  console.log(`${RUNS} rounds, each the baseline, a cold scan and a rescan in turn`);
  console.log(`baseline readline + JSON.parse of every line: ${summary(rounds.map((r) => r.base))}`);
  console.log(`rollouts scan (CLI), cold cache: ${summary(rounds.map((r) => r.cold))}`);
  console.log(`  wall time ratio to the round's baseline: ${ratios(rounds.map((r) => ({ base: r.base, side: r.cold, of: wall })))}`);
  console.log(`  cpu time ratio to the round's baseline: ${ratios(rounds.map((r) => ({ base: r.base, side: r.cold, of: cpuTime })))}`);
  console.log(`rollouts scan (CLI), rescan, nothing changed: ${summary(rounds.map((r) => r.warm))}`);
  console.log(`  wall time ratio to the round's baseline: ${ratios(rounds.map((r) => ({ base: r.base, side: r.warm, of: wall })))}`);
  if (reuse !== null) console.log(`rescan reuse: ${reuse[2]} of ${reuse[1]} files`);
  console.log(`load after ${loadavg()[0]?.toFixed(1)}`);
}

await bench();
