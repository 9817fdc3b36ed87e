/** Helpers of the crs-state benchmarks: closed-loop load at a concurrency, percentiles, the machine. */

import { readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";

/** Throughput and latency of one closed-loop run. */
export interface LoadResult {
  /** Completed operations per second. */
  readonly opsPerSec: number;
  /** Median latency in ms. */
  readonly p50: number;
  /** 99th percentile latency in ms. */
  readonly p99: number;
  /** Operations completed. */
  readonly ops: number;
  /**
   * CPU time (user and system, all threads) per operation in µs, of the bench process and of
   * the subject's server process when it has one: less disturbed than throughput by other
   * processes on a shared machine, which delay wake-ups more than they slow computation.
   */
  readonly cpuUsPerOp: number;
  /** The part of {@link cpuUsPerOp} spent in the subject's server process (0 when it has none). */
  readonly serverCpuUsPerOp: number;
  /** Throughput of each turn, in turn order (see {@link interleaved}). */
  readonly turnOpsPerSec: readonly number[];
}

/** One operation under load: `client` is the loop running it, `i` counts that loop's operations. */
export type LoadOp = (client: number, i: number) => Promise<unknown>;

/** A subject's load figures summed over its turns. */
interface Run {
  readonly latencies: number[];
  elapsedMs: number;
  cpuUs: number;
  serverCpuUs: number;
  readonly next: number[];
  readonly turns: number[];
}

function summarize(run: Run): LoadResult {
  const latencies = run.latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const ops = latencies.length;
  const perOp = (us: number) => (ops === 0 ? 0 : us / ops);
  return {
    opsPerSec: ops / (run.elapsedMs / 1000),
    p50: at(0.5),
    p99: at(0.99),
    ops,
    cpuUsPerOp: perOp(run.cpuUs + run.serverCpuUs),
    serverCpuUsPerOp: perOp(run.serverCpuUs),
    turnOpsPerSec: run.turns,
  };
}

// Clock ticks per second of /proc's CPU times: 100 on every Linux kernel configuration in use.
const CLOCK_TICKS = 100;

/** CPU time (user and system, all threads) the process `pid` has used so far, in µs; NaN off Linux. */
export function processCpuUs(pid: number): number {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/**
 * The median over turns of `r`'s throughput divided by `base`'s in the same turn. Load from
 * elsewhere that comes and goes shifts whole turns, so paired turns cancel more of it than the
 * ratio of the totals does; the two disagreeing says the machine was busy.
 */
export function medianTurnRatio(r: LoadResult, base: LoadResult): number {
  const ratios = r.turnOpsPerSec.map((x, i) => x / (base.turnOpsPerSec[i] ?? Number.NaN)).sort((a, b) => a - b);
  const mid = ratios.length >> 1;
  return ratios.length % 2 === 1 ? (ratios[mid] ?? Number.NaN) : ((ratios[mid - 1] ?? Number.NaN) + (ratios[mid] ?? Number.NaN)) / 2;
}

// Runs `op` from `clients` loops until `end`; each loop starts its next op when the last ends.
async function loops(clients: number, end: number, op: LoadOp, next: number[], latencies: number[]): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (performance.now() < end) {
        const i = next[c] ?? 0;
        next[c] = i + 1;
        const t = performance.now();
        await op(c, i);
        latencies.push(performance.now() - t);
      }
    }),
  );
}

/** How {@link interleaved} runs its ops. */
export interface InterleaveOptions<K extends string> {
  /** Turns each op's measured time is cut into. @defaultValue 6 */
  readonly slices?: number;
  /** Unmeasured run of each op first. @defaultValue 2 */
  readonly warmupSeconds?: number;
  /** For an op served by another process: that process's CPU time so far, in µs. */
  readonly serverCpu?: Partial<Record<K, () => number>>;
}

/**
 * Runs every op of `ops` closed-loop from `clients` loops for `seconds` each, in turns that
 * alternate between them (the order rotating every turn), so load from elsewhere that comes and
 * goes during the run weighs on each op alike and the ratios between them stay comparable. Each
 * op first runs unmeasured, so the figures are of code the JIT has compiled, as in a server that
 * has been up for a while, not of its first seconds.
 */
export async function interleaved<K extends string>(
  clients: number,
  seconds: number,
  ops: Record<K, LoadOp>,
  options: InterleaveOptions<K> = {},
): Promise<Record<K, LoadResult>> {
  const { slices = 6, warmupSeconds = 2 } = options;
  const serverCpu: Partial<Record<K, () => number>> = options.serverCpu ?? {};
  const names = Object.keys(ops) as K[];
  const runs = names.map((): Run => ({ latencies: [], elapsedMs: 0, cpuUs: 0, serverCpuUs: 0, next: [], turns: [] }));
  for (const [at, name] of names.entries()) {
    const run = runs[at] as Run;
    await loops(clients, performance.now() + warmupSeconds * 1000, ops[name], run.next, []);
  }
  for (let s = 0; s < slices; s++) {
    for (let k = 0; k < names.length; k++) {
      const at = (s + k) % names.length;
      const name = names[at] as K;
      const run = runs[at] as Run;
      const server = serverCpu[name] ?? (() => 0);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const serverBefore = server();
      const before = run.latencies.length;
      await loops(clients, started + (seconds * 1000) / slices, ops[name], run.next, run.latencies);
      const used = process.cpuUsage(cpu);
      const elapsedMs = performance.now() - started;
      run.turns.push((run.latencies.length - before) / (elapsedMs / 1000));
      run.elapsedMs += elapsedMs;
      run.cpuUs += used.user + used.system;
      run.serverCpuUs += server() - serverBefore;
    }
  }
  return Object.fromEntries(names.map((name, at) => [name, summarize(runs[at] as Run)])) as Record<K, LoadResult>;
}

/** One line describing the machine the numbers came from. */
export function machine(): string {
  return `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`;
}

/** Formats a number with thousands separators. */
export function n(x: number, digits = 0): string {
  return x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
