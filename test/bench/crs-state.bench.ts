/**
 * crs-state storage benchmarks, each beside a baseline measured in the same run:
 * 1. durable Apply calls through gRPC at 1, 16 and 64 concurrent clients beside a no-op grpc-js
 *    server. Both servers run as processes of their own, as deployed: crs-state from its
 *    production bundle on classic-level (every acknowledgement after a synced group commit), the
 *    no-op from its module; their clients are in the bench process, which runs nothing else
 *    meanwhile (clients inside a server's process would share its event loop, which no deployment
 *    does). Under them, crs-state's group commit as its /metrics counted it: mutations per synced
 *    batch, the synced write's mean wall time and its share of the batch cycle. Then, in a run of
 *    their own beside the no-op again, the layers under gRPC in the bench process: raw synced
 *    classic-level puts and the project host called directly;
 * 2. restart to serving of a project with BENCH_CHANGES (default 1,000,000) journaled changes;
 * 3. memory of a loaded project with 10k and 1M proof entries.
 * Each subject first runs unmeasured (JIT warm-up; BENCH_WARMUP_SECONDS, default 6: crs-state's
 * Apply path runs several times its settled cost in its first second and settles after about four,
 * where the no-op settles within one, so a shorter warm-up measures start-up). The subjects of a
 * run then alternate in turns, so load from elsewhere weighs on them alike; each line also gives
 * the CPU time per operation (client and server process together, the server's part in
 * brackets), the figure a busy machine disturbs least, and beside the throughput ratio of the
 * whole run the median of the ratios of the turns, which load that comes and goes shifts less.
 * BENCH_SECONDS sets the length of each load run (default 6); BENCH_CLIENTS the concurrencies of
 * part 1 (default 1,16,64); BENCH_PARTS the parts to run (default mutations,restart,memory).
 * The clients of both gRPC servers share one connection per 16 concurrent callers.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ClassicLevel } from "classic-level";
import { StateEngine, type ProofEntry } from "@crs/domain/state";
import { StoreHost } from "@crs/crs-state/projects";
import { LevelStore } from "@crs/crs-state/store";
import { credentials } from "@grpc/grpc-js";
import { createClient, type TypedClient } from "@crs/runtime";
import { StateService } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { startServerProcess, startServiceProcess, type ServiceProcess } from "../support/service-process.js";
import { run } from "../support/tools.js";
import { interleaved, machine, medianTurnRatio, n, processCpuUs, type LoadOp, type LoadResult } from "./bench-support.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? "6");
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? "6");
const CHANGES = Number(process.env.BENCH_CHANGES ?? "1000000");
const CLIENTS = (process.env.BENCH_CLIENTS ?? "1,16,64").split(",").map(Number);
const PARTS = new Set((process.env.BENCH_PARTS ?? "mutations,restart,memory").split(","));
// Concurrent callers per connection: a client process with many callers opens a few channels.
const CALLERS_PER_CHANNEL = 16;
const encoder = new TextEncoder();

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "crs-bench-"));
}

function row(label: string, r: LoadResult, base?: LoadResult): string {
  const ratio =
    base === undefined
      ? ""
      : `  throughput x${(r.opsPerSec / base.opsPerSec).toFixed(2)} (median of turns x${medianTurnRatio(r, base).toFixed(2)}), p99 x${(r.p99 / base.p99).toFixed(2)}, cpu/op x${(r.cpuUsPerOp / base.cpuUsPerOp).toFixed(2)} of no-op`;
  const server = r.serverCpuUsPerOp > 0 ? ` (server ${n(r.serverCpuUsPerOp)})` : "";
  return `  ${label.padEnd(34)} ${n(r.opsPerSec).padStart(8)} ops/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  cpu ${n(r.cpuUsPerOp)}${server} us/op${ratio}`;
}

type StateClient = TypedClient<typeof StateService.method>;

// One channel per CALLERS_PER_CHANNEL callers, each on its own connection (a local subchannel pool).
function stateClients(port: number, clients: number): StateClient[] {
  return Array.from({ length: Math.ceil(clients / CALLERS_PER_CHANNEL) }, () =>
    createClient(StateService, `127.0.0.1:${port}`, {
      credentials: credentials.createInsecure(),
      channelOptions: { "grpc.use_local_subchannel_pool": 1 },
    }),
  );
}

// The same Apply request for the no-op server and crs-state: one similarity pair per call.
function applyOp(channels: StateClient[], projects: string[]): LoadOp {
  return (c, i) =>
    (channels[c % channels.length] as StateClient).apply({
      projectId: projects[c % projects.length] as string,
      delta: {
        source: SignalSource.SOFT,
        kind: { case: "similarity", value: { updates: [{ a: `c${c}-${i}`, b: "hub", distance: 0.5 }] } },
      },
      options: { requestId: `c${c}-${i}` },
    });
}

function benchProjects(clients: number): string[] {
  return Array.from({ length: Math.min(clients, 8) }, (_, i) => `bench-${i}`);
}

/** One measured system: its operation, its server process's CPU time when it has one, and how to release it. */
interface Subject {
  readonly op: LoadOp;
  readonly serverCpu?: () => number;
  close(): Promise<void>;
}

// The CPU time so far of a server process, in µs.
const cpuOf = (server: ServiceProcess) => () => processCpuUs(server.child.pid ?? 0);

/** The journal's group commit as crs-state's /metrics counted it over the whole subject's life. */
interface JournalFigures {
  /** Mean submissions (mutations) per synced batch. */
  readonly perBatch: number;
  /** Mean wall time of one synced batch write in ms. */
  readonly syncMs: number;
}

async function journalFigures(metricsPort: number): Promise<JournalFigures> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const sample = (name: string): number => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  const batches = sample("crs_state_journal_batch_writes_count");
  return {
    perBatch: sample("crs_state_journal_batch_writes_sum") / batches,
    syncMs: (sample("crs_state_journal_sync_seconds_sum") * 1000) / sample("crs_state_journal_sync_seconds_count"),
  };
}

async function noopSubject(clients: number): Promise<Subject> {
  const noop = await startServerProcess(["--import", "tsx", "test/bench/noop-apply-process.ts"], "no-op apply");
  const channels = stateClients(noop.port, clients);
  return {
    op: applyOp(channels, benchProjects(clients)),
    serverCpu: cpuOf(noop),
    close: async () => {
      for (const channel of channels) channel.close();
      await noop.stop();
    },
  };
}

async function rawSubject(): Promise<Subject> {
  const dir = await tempDir();
  const db = new ClassicLevel<string, string>(dir);
  await db.open();
  return {
    op: (c, i) => db.put(`k${c}-${i}`, "v".repeat(200), { sync: true }),
    close: async () => {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function hostSubject(clients: number): Promise<Subject> {
  const dir = await tempDir();
  const host = new StoreHost(await LevelStore.open(dir));
  const projects = benchProjects(clients);
  for (const p of projects) await host.create(p, { config: { maxSimilarityPairs: 10_000_000 } });
  return {
    op: (c, i) =>
      host.mutate(
        projects[c % projects.length] as string,
        { method: "RecordSimilarity", requestId: `c${c}-${i}`, fingerprint: Buffer.from(`c${c}-${i}`).toString("hex") },
        (e) => e.recordSimilarity({ a: `c${c}-${i}`, b: "hub", distance: 0.5 }),
        (_r, h) => encoder.encode(String(h.generation)),
      ),
    close: async () => {
      await host.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function crsStateSubject(clients: number): Promise<Subject & { journal(): Promise<JournalFigures> }> {
  const dir = await tempDir();
  const service = await startServiceProcess("crs-state", { CRS_STATE_DATA_DIR: dir }, "built");
  const channels = stateClients(service.port, clients);
  const projects = benchProjects(clients);
  for (const p of projects) await (channels[0] as StateClient).createProject({ projectId: p, config: { maxSimilarityPairs: 10_000_000 } });
  return {
    op: applyOp(channels, projects),
    serverCpu: cpuOf(service),
    journal: () => journalFigures(service.metricsPort),
    close: async () => {
      for (const channel of channels) channel.close();
      await service.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function mutationThroughput(): Promise<void> {
  const built = await run(process.execPath, ["--import", "tsx", "scripts/build.ts", "crs-state"], { timeoutMs: 300_000 });
  if (built.code !== 0) throw new Error(`building crs-state failed: ${built.stderr}`);
  console.log("durable mutations (classic-level, synced group commit) vs baselines, same run, interleaved in 6 turns:");
  for (const clients of CLIENTS) {
    // The two gRPC servers first, with nothing else in this process, whose heap their clients
    // share: an in-process store growing beside them would add its collections to their turns.
    const noop = await noopSubject(clients);
    const grpc = await crsStateSubject(clients);
    const served = await interleaved(
      clients,
      SECONDS,
      { noop: noop.op, grpc: grpc.op },
      { warmupSeconds: WARMUP_SECONDS, serverCpu: { noop: noop.serverCpu, grpc: grpc.serverCpu } },
    );
    const journal = await grpc.journal();
    await grpc.close();
    // The layers under gRPC, in this process, beside the same no-op in a run of their own.
    const raw = await rawSubject();
    const host = await hostSubject(clients);
    const stored = await interleaved(
      clients,
      SECONDS,
      { noop: noop.op, raw: raw.op, host: host.op },
      { warmupSeconds: WARMUP_SECONDS, serverCpu: { noop: noop.serverCpu } },
    );
    for (const subject of [noop, raw, host]) await subject.close();
    console.log(` ${clients} client(s):`);
    console.log(row("no-op grpc-js Apply (baseline)", served.noop));
    console.log(row("crs-state Apply over gRPC, durable", served.grpc, served.noop));
    // Every acknowledgement waits for its batch's synced write: a wait in crs-state's cycle that
    // the no-op's does not have.
    const cycleMs = (journal.perBatch / served.grpc.opsPerSec) * 1000;
    console.log(
      `  crs-state journal: ${journal.perBatch.toFixed(1)} mutations per synced batch, ${journal.syncMs.toFixed(2)} ms per synced write (mean), ${((journal.syncMs / cycleMs) * 100).toFixed(0)}% of a ${cycleMs.toFixed(2)} ms batch cycle`,
    );
    console.log(`  under gRPC, in this process, beside the no-op again (${n(stored.noop.opsPerSec)} ops/s in that run):`);
    console.log(row("raw classic-level put, sync", stored.raw, stored.noop));
    console.log(row("host mutate, durable (no gRPC)", stored.host, stored.noop));
  }
}

async function restartTime(): Promise<void> {
  const dir = await tempDir();
  const nodes = 10_000;
  const host = new StoreHost(await LevelStore.open(dir));
  await host.create("big", {});
  const t0 = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: 256 }, async (_, c) => {
      for (let i = c; i < CHANGES; i += 256) {
        await host.mutate(
          "big",
          { method: "UpdateProof" },
          (e) => e.updateProof({ nodeId: `node-${i % nodes}`, type: "increment", delta: 1n, reason: "bench", source: "soft" }),
          () => new Uint8Array(0),
        );
        done++;
      }
    }),
  );
  const writeSec = (performance.now() - t0) / 1000;
  const status = await host.status("big");
  await host.close();
  const t1 = performance.now();
  const reopened = new StoreHost(await LevelStore.open(dir));
  const generation = await reopened.read("big", (v) => v.header.generation);
  const restartMs = performance.now() - t1;
  const after = await reopened.status("big");
  await reopened.close();
  const baseline = new StateEngine();
  const t2 = performance.now();
  baseline.importDocument(baseline.exportDocument());
  const emptyMs = performance.now() - t2;
  await rm(dir, { recursive: true, force: true });
  console.log(
    `restart to serving, ${n(done)} journaled changes over ${n(nodes)} nodes (written in ${writeSec.toFixed(1)} s, ${n(done / writeSec)} changes/s):`,
  );
  console.log(
    `  open store + recover project to generation ${n(generation)}: ${restartMs.toFixed(0)} ms (target < 5000 ms); replayed ${n(after.journalRecords)} journal records after the snapshot of generation ${n(after.lastSnapshotGeneration)} (last seq ${n(status.lastSequence)}); empty-state import baseline ${emptyMs.toFixed(2)} ms`,
  );
}

function gc(): void {
  (runInNewContext("gc") as () => void)();
}

function proofEntries(from: number, count: number): ProofEntry[] {
  return Array.from(
    { length: count },
    (_, i) =>
      ({ nodeId: `node-${from + i}`, proof: 1n, disproof: 1n, status: "unknown", source: "soft", updatedAt: 0 }) as unknown as ProofEntry,
  );
}

async function memoryPerProject(): Promise<void> {
  setFlagsFromString("--expose-gc");
  console.log("memory of a loaded project (heap after GC, minus an empty project):");
  for (const entries of [10_000, 1_000_000]) {
    gc();
    const before = process.memoryUsage().heapUsed;
    const engine = new StateEngine({ config: { snapshotRingSize: 1 } });
    for (let at = 0; at < entries; at += 10_000)
      engine.apply({ kind: "proof", source: "soft", updates: proofEntries(at, Math.min(10_000, entries - at)) });
    gc();
    const used = process.memoryUsage().heapUsed - before;
    console.log(
      `  ${n(entries).padStart(9)} proof entries: ${n(used / 2 ** 20, 1)} MiB (${n(used / entries)} bytes per entry), generation ${engine.generation}`,
    );
  }
}

console.log(`crs-state storage benchmarks on ${machine()}`);
if (PARTS.has("mutations")) await mutationThroughput();
if (PARTS.has("restart")) await restartTime();
if (PARTS.has("memory")) await memoryPerProject();
