// End-to-end corpus scan, cold start included, beside a plain readline + JSON.parse of every
// line of the same files, measured in the same run. The corpus is generated once (seeded) and
// kept in the temp directory; SCAN_BENCH_BYTES sets its size (default 1 GiB).
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

// The scan as a user runs it: the CLI when it has a scan command, else this file as the entry.
function scanArgs(root: string, cacheDir: string): string[] {
  const cli = join(SERVICE, "src/cli/commands/scan.ts");
  if (existsSync(cli))
    return ["bin/rollouts.js", "scan", root, "--now", String(NOW), "--cache-dir", cacheDir, "--format", "json", "--out", "/dev/null"];
  return ["--import", "tsx", fileURLToPath(import.meta.url), "--scan", root, cacheDir];
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

async function bench(): Promise<void> {
  const root = await corpus();
  buildCli();
  const cacheDir = await mkdtemp(join(tmpdir(), "crs-scan-bench-cache-"));
  try {
    const cpu = cpus()[0]?.model ?? "unknown cpu";
    console.log(
      `machine: ${availableParallelism()} cores (${cpu}), node ${process.version}, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    const entry = existsSync(join(SERVICE, "src/cli/commands/scan.ts")) ? "rollouts scan (CLI)" : "scanCorpus script entry";
    // One untimed pass warms the page cache for both sides.
    await run(["--input-type=module", "-e", BASELINE, root]);
    const base = await run(["--input-type=module", "-e", BASELINE, root]);
    const cold = await run(scanArgs(root, cacheDir));
    const warm = await run(scanArgs(root, cacheDir));
    const reuse = /scanned (\d+) files \((\d+) reused/.exec(warm.stderr) ?? /reused (\d+)\/(\d+)/.exec(warm.stderr);
    const fmt = (r: Run): string => `${(r.ms / 1000).toFixed(2)} s, peak RSS ${r.peakMb.toFixed(0)} MB, cpu ${r.cpuS.toFixed(2)} s`;
    console.log(`baseline readline + JSON.parse of every line: ${fmt(base)}`);
    console.log(`${entry}, cold cache: ${fmt(cold)}; ratio to baseline wall ${(cold.ms / base.ms).toFixed(2)}x`);
    console.log(`${entry}, rescan, nothing changed: ${fmt(warm)}; ratio to baseline wall ${(warm.ms / base.ms).toFixed(2)}x`);
    if (reuse !== null) console.log(`rescan reuse: ${reuse[2]} of ${reuse[1]} files`);
    console.log(
      `cpu time ratio to baseline: cold ${(cold.cpuS / base.cpuS).toFixed(2)}x, rescan ${(warm.cpuS / base.cpuS).toFixed(2)}x; load after ${loadavg()[0]?.toFixed(1)}`,
    );
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

// Child mode (no CLI yet): scan, report file counts on stderr in the CLI's words.
async function scanChild(root: string, cacheDir: string): Promise<void> {
  const { scanCorpus } = await import("./scan-corpus.js");
  const r = await scanCorpus({ root, now: NOW, cacheDir });
  process.stderr.write(`scanned ${r.files.scanned} files (${r.files.reused} reused from cache), ${r.files.bytes} bytes\n`);
}

const at = process.argv.indexOf("--scan");
if (at > 0) await scanChild(process.argv[at + 1] ?? "", process.argv[at + 2] ?? "");
else await bench();
