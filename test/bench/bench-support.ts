/** Helpers of the crs-state benchmarks: closed-loop load at a concurrency, percentiles, the machine. */

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
}

/** Runs `op` from `clients` concurrent loops for `seconds`; each loop starts its next op when the last ends. */
export async function closedLoop(
  clients: number,
  seconds: number,
  op: (client: number, i: number) => Promise<unknown>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; performance.now() < end; i++) {
        const t = performance.now();
        await op(c, i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { opsPerSec: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), ops: latencies.length };
}

/** One line describing the machine the numbers came from. */
export function machine(): string {
  return `${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`;
}

/** Formats a number with thousands separators. */
export function n(x: number, digits = 0): string {
  return x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
