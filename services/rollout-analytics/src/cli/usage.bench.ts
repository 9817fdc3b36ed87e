// `rollouts usage` beside ccusage 20.0.24 (`ccusage codex daily`) on the same generated corpus, and
// beside a baseline measured in the same run: reading every file whole and JSON.parse-ing each
// line. ccusage is installed into the temp directory (never a project dependency); when npm
// cannot fetch it, its line is skipped with a message. USAGE_BENCH_BYTES sets the corpus size
// (default 1 GiB, seed 11: the files the scan bench reads).
// The machine may be shared: every command runs USAGE_BENCH_RUNS times (default 5), the runs of
// the different commands interleaved, and the medians are compared.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, open, readdir, readFile, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { writeCorpus } from "../generate/index.js";

const run = promisify(execFile);
const SERVICE = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const BYTES = Number(process.env["USAGE_BENCH_BYTES"] ?? 1024 ** 3);
const CCUSAGE_VERSION = "20.0.24";
const SEED = 11;
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

interface Timed {
  readonly ms: number;
  /** CPU time (user + system) of the command and every process it started, as `sh`'s `times` reports it. */
  readonly cpuMs: number;
  readonly stdout: string;
}

// Runs the command under `sh`, whose `times` then reports its children's CPU time on the last line
// of stderr: wall-clock time is noisy on a shared machine, CPU time much less so.
async function timed(file: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Timed> {
  const started = performance.now();
  const { stdout, stderr } = await run("sh", ["-c", '"$@"; s=$?; times >&2; exit $s', "sh", file, ...args], {
    cwd: SERVICE,
    env: { ...process.env, TZ: "UTC", ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  const children = stderr.trimEnd().split("\n").at(-1) ?? "";
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { ms, cpuMs: seconds.length === 2 ? ((seconds[0] ?? 0) + (seconds[1] ?? 0)) * 1000 : Number.NaN, stdout };
}

// ccusage's native parser can abort on a line it cannot slice (a torn tail ending right after
// `"type":`): its failure is printed once and its runs are left out, so ours are still measured.
function ccusageFailure(e: unknown): string {
  const stderr = typeof e === "object" && e !== null && "stderr" in e ? String(e.stderr) : "";
  const panic = stderr.split("\n").filter((l) => l.includes("panicked") || l.includes("out of range"));
  return panic.length > 0 ? panic.join(" ") : e instanceof Error ? (e.message.split("\n")[0] ?? "") : String(e);
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

// ccusage 20.0.24 aborts (an out-of-range slice in its native parser) on a file whose torn last
// line stops right after `"type":` or `"type":"`, and a large corpus holds a few. Such a line is
// cut off at its start, for both tools alike, so ccusage can be measured at all; the generator's
// other torn tails stay. Returns how many files were cut.
async function cutTailsCcusageAbortsOn(root: string): Promise<number> {
  let cut = 0;
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !e.name.endsWith(".jsonl")) continue;
    const file = await open(join(e.parentPath, e.name), "r+");
    try {
      const { size } = await file.stat();
      const tail = Buffer.alloc(Math.min(size, 64 * 1024));
      await file.read(tail, 0, tail.length, size - tail.length);
      const text = tail.toString("latin1");
      if (!text.endsWith('"type":') && !text.endsWith('"type":"')) continue;
      await file.truncate(size - tail.length + text.lastIndexOf("\n") + 1);
      cut += 1;
    } finally {
      await file.close();
    }
  }
  return cut;
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
    const made = await writeCorpus({ dir: root, seed: SEED, bytes: BYTES });
    const cut = await cutTailsCcusageAbortsOn(root);
    await writeFile(join(await mkdir(HOME, { recursive: true }).then(() => HOME), ".complete"), JSON.stringify({ ...made, cut }));
  }
  await buildCli();
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(" ");
  const { files, cut } = JSON.parse(await readFile(join(HOME, ".complete"), "utf8")) as { files: number; cut?: number };
  console.log(
    `corpus: ${(BYTES / 1e6).toFixed(0)} MB, seed ${SEED}, ${files} files (${cut ?? 0} torn last lines ccusage aborts on were cut off)`,
  );
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, node ${process.version}, load ${load()}`);
  const bin = await ccusageBin();
  const cacheDir = join(HOME, "cache");
  const usage = (...extra: string[]) => ["bin/rollouts.cjs", "usage", root, ...extra];
  // The warm runs read what this first run cached.
  await timed(process.execPath, usage("--cache-dir", cacheDir));
  const runs = { baseline: [] as Timed[], cold: [] as Timed[], warm: [] as Timed[], cc: [] as Timed[] };
  let oursTotal = 0;
  let ccTotal = 0;
  let ccFailed = bin === null;
  for (let i = 0; i < RUNS; i += 1) {
    runs.baseline.push(await timed(process.execPath, ["-e", BASELINE, root]));
    const cold = await timed(process.execPath, usage("--no-cache"));
    runs.cold.push(cold);
    oursTotal = (JSON.parse(cold.stdout) as { totals: { total_tokens: number } }).totals.total_tokens;
    runs.warm.push(await timed(process.execPath, usage("--cache-dir", cacheDir)));
    if (bin !== null && !ccFailed) {
      try {
        const cc = await timed(bin, ["codex", "daily", "--json", "--offline"], { CODEX_HOME: HOME });
        runs.cc.push(cc);
        ccTotal = (JSON.parse(cc.stdout) as { totals: { totalTokens: number } }).totals.totalTokens;
      } catch (e) {
        ccFailed = true;
        console.log(`ccusage ${CCUSAGE_VERSION} failed on this corpus, its runs are left out: ${ccusageFailure(e)}`);
      }
    }
  }
  const median = (xs: number[]): number => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };
  const wall = (ts: Timed[]): number[] => ts.map((t) => t.ms);
  const cpu = (ts: Timed[]): number[] => ts.map((t) => t.cpuMs);
  const span = (ts: Timed[]): string =>
    `median ${median(wall(ts)).toFixed(0)} ms (min ${Math.min(...wall(ts)).toFixed(0)}, max ${Math.max(...wall(ts)).toFixed(0)}), cpu ${median(cpu(ts)).toFixed(0)} ms`;
  const mb = BYTES / 1e6;
  const rate = (ts: Timed[]): string => `${(mb / (median(wall(ts)) / 1000)).toFixed(1)} MB/s`;
  const base = median(wall(runs.baseline));
  console.log(`${RUNS} runs each, interleaved; load after: ${load()}`);
  console.log(`baseline read + JSON.parse every line: ${span(runs.baseline)}, ${rate(runs.baseline)}`);
  console.log(
    `rollouts usage (cold, no cache):       ${span(runs.cold)}, ${rate(runs.cold)}, ${(median(wall(runs.cold)) / base).toFixed(2)}× baseline`,
  );
  console.log(`rollouts usage (warm per-file cache):  ${span(runs.warm)}, ${(median(wall(runs.warm)) / base).toFixed(2)}× baseline`);
  if (runs.cc.length === 0 || ccFailed) return;
  const cc = median(wall(runs.cc));
  const ccCpu = median(cpu(runs.cc));
  console.log(
    `ccusage ${CCUSAGE_VERSION} codex daily:            ${span(runs.cc)}, ${rate(runs.cc)}, ${(cc / base).toFixed(2)}× baseline; rollouts usage / ccusage = ${(median(wall(runs.cold)) / cc).toFixed(2)} cold, ${(median(wall(runs.warm)) / cc).toFixed(2)} warm (cpu ${(median(cpu(runs.cold)) / ccCpu).toFixed(2)} cold, ${(median(cpu(runs.warm)) / ccCpu).toFixed(2)} warm)`,
  );
  console.log(`total tokens: rollouts ${oursTotal}, ccusage ${ccTotal} (${oursTotal === ccTotal ? "equal" : "DIFFERENT"})`);
}

await main();
