/**
 * The crash test: runs the project host in a child process on classic-level, drives concurrent
 * mutations from several clients, SIGKILLs the child at random moments, restarts it, and after
 * every restart checks that every acknowledged mutation is present, nothing unacknowledged is
 * half-applied, the generation equals the number of applied mutations, and retried request ids
 * answer their first result.
 */

import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** Options of {@link runCrashTest}. */
export interface CrashOptions {
  /** SIGKILLs to deliver. */
  readonly kills: number;
  /** Seed of the random kill moments and client choices (printed on failure). */
  readonly seed: number;
  /** Data directory of the host. */
  readonly dir: string;
  /** Concurrent clients. @defaultValue 8 */
  readonly clients?: number;
  /** Projects the clients spread over. @defaultValue 3 */
  readonly projects?: number;
  /** Most ms between a restart and the kill. @defaultValue 150 */
  readonly maxRunMs?: number;
  /** Journal records between state snapshots in the child. @defaultValue 25 */
  readonly snapshotEveryRecords?: number;
  /** Progress lines. */
  readonly log?: (line: string) => void;
}

/** What a run did. */
export interface CrashReport {
  /** Kills delivered. */
  kills: number;
  /** Mutations acknowledged. */
  acked: number;
  /** Mutations in flight at a kill (resolved by retry after the restart). */
  inFlightAtKill: number;
  /** Of those, how many the retry found already applied (answered as replays). */
  appliedBeforeKill: number;
  /** Retries of acknowledged request ids that answered their first result. */
  replaysChecked: number;
}

interface Reply {
  readonly id: number;
  readonly error?: string;
  readonly answer?: string;
  readonly replayed?: boolean;
  readonly generation?: number;
  readonly present?: string[];
}

/** Deterministic random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bundles the child once, so each restart costs a plain node start. */
async function bundleChild(): Promise<string> {
  const outfile = fileURLToPath(new URL("./.build/crash-child.mjs", import.meta.url));
  await build({
    entryPoints: [fileURLToPath(new URL("./crash-child.ts", import.meta.url))],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    external: ["classic-level"],
    logLevel: "error",
  });
  return outfile;
}

class Child {
  private readonly waiting = new Map<number, (r: Reply) => void>();
  private next = 1;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;

  constructor(readonly proc: ChildProcess) {
    let markReady: () => void = () => undefined;
    this.ready = new Promise((r) => {
      markReady = r;
    });
    this.exited = new Promise((r) => proc.once("exit", () => r()));
    // Writing to a child that was just killed fails with EPIPE; its requests stay unanswered (in flight).
    proc.stdin?.on("error", () => undefined);
    createInterface({ input: proc.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const reply = JSON.parse(line) as Reply & { ready?: boolean };
      if (reply.id === 0) markReady();
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
  }

  /** Sends a request; resolves with its reply, or never if the child dies first. */
  call(request: object): Promise<Reply> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.proc.stdin?.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  }
}

/** Runs the crash test; throws an AssertionError naming the seed when a check fails. */
export async function runCrashTest(options: CrashOptions): Promise<CrashReport> {
  const rand = random(options.seed);
  const clients = options.clients ?? 8;
  const projects = Array.from({ length: options.projects ?? 3 }, (_, i) => `crash-${i}`);
  const childFile = await bundleChild();
  const sent = new Map(projects.map((p) => [p, new Set<string>()]));
  const acked = new Map(projects.map((p) => [p, new Map<string, string>()]));
  let inFlight: { project: string; key: string }[] = [];
  const report: CrashReport = { kills: 0, acked: 0, inFlightAtKill: 0, appliedBeforeKill: 0, replaysChecked: 0 };
  let counter = 0;
  const start = () => {
    const proc = spawn(process.execPath, [childFile, options.dir, String(options.snapshotEveryRecords ?? 25)], { stdio: ["pipe", "pipe", "inherit"] });
    return new Child(proc);
  };
  const where = () => `(seed ${options.seed}, after kill ${report.kills})`;

  for (let round = 0; round <= options.kills; round++) {
    const child = start();
    await child.ready;
    for (const p of projects) {
      const r = await child.call({ op: "create", project: p });
      assert.ok(r.error === undefined || round > 0, `create ${p}: ${r.error} ${where()}`);
    }
    // Verify what the previous life left.
    for (const p of projects) {
      const keys = [...(sent.get(p) as Set<string>)];
      const r = await child.call({ op: "probe", project: p, keys });
      assert.equal(r.error, undefined, `probe ${p}: ${r.error} ${where()}`);
      const present = new Set(r.present);
      for (const k of (acked.get(p) as Map<string, string>).keys()) assert.ok(present.has(k), `acknowledged ${p}/${k} is present ${where()}`);
      assert.equal(r.generation, present.size, `generation of ${p} equals the applied mutations ${where()}`);
    }
    // Retry what was in flight at the kill: applied or not, the retry settles it exactly once.
    for (const { project, key } of inFlight) {
      const before = await child.call({ op: "probe", project, keys: [key] });
      const r = await child.call({ op: "mutate", project, key, requestId: key });
      assert.equal(r.error, undefined, `retry ${project}/${key}: ${r.error} ${where()}`);
      assert.equal(r.replayed, (before.present ?? []).length === 1, `retry of ${project}/${key} is a replay exactly when it was applied ${where()}`);
      if (r.replayed === true) report.appliedBeforeKill++;
      (acked.get(project) as Map<string, string>).set(key, r.answer as string);
    }
    inFlight = [];
    // Acknowledged request ids answer their first result.
    for (const p of projects) {
      const entries = [...(acked.get(p) as Map<string, string>)];
      for (let i = 0; i < Math.min(2, entries.length); i++) {
        const [key, answer] = entries[Math.floor(rand() * entries.length)] as [string, string];
        const r = await child.call({ op: "mutate", project: p, key, requestId: key });
        assert.equal(r.replayed, true, `retry of acknowledged ${p}/${key} is a replay ${where()}`);
        assert.equal(r.answer, answer, `retry of ${p}/${key} answers the first result ${where()}`);
        report.replaysChecked++;
      }
    }
    if (round === options.kills) {
      child.proc.kill("SIGKILL");
      await child.exited;
      break;
    }
    // Drive concurrent clients, then kill at a random moment.
    let alive = true;
    const pending = new Map<string, { project: string; key: string }>();
    const drive = async (c: number) => {
      while (alive) {
        const project = projects[Math.floor(rand() * projects.length)] as string;
        const key = `c${c}-${counter++}`;
        (sent.get(project) as Set<string>).add(key);
        pending.set(key, { project, key });
        const r = await child.call({ op: "mutate", project, key, requestId: key });
        if (!alive) return;
        pending.delete(key);
        assert.equal(r.error, undefined, `mutate ${project}/${key}: ${r.error} ${where()}`);
        (acked.get(project) as Map<string, string>).set(key, r.answer as string);
        report.acked++;
      }
    };
    const runs = Array.from({ length: clients }, (_, c) => drive(c));
    await new Promise((r) => setTimeout(r, 5 + Math.floor(rand() * (options.maxRunMs ?? 150))));
    child.proc.kill("SIGKILL");
    await child.exited;
    alive = false;
    void runs;
    inFlight = [...pending.values()];
    report.inFlightAtKill += inFlight.length;
    report.kills++;
    if (report.kills % 10 === 0) options.log?.(`crash-test: ${report.kills} kills, ${report.acked} acknowledged, ${report.appliedBeforeKill}/${report.inFlightAtKill} in flight were applied`);
  }
  return report;
}
