/**
 * The crash test: runs the crs-state server (the built bundle, as shipped) as a child process
 * on classic-level, drives concurrent Apply calls from several clients, SIGKILLs the server at
 * random moments, restarts it, and after every restart checks through gRPC that every
 * acknowledged apply is present, nothing unacknowledged is half-applied (the generation equals
 * the applied deltas), and retried request ids answer their first result.
 */

import assert from "node:assert/strict";
import { credentials, type ServiceError } from "@grpc/grpc-js";
import { createPrng } from "@crs/domain/rollout";
import { createClient } from "@crs/runtime";
import { SimilarityService } from "@crs/contracts/gen/crs/state/v1/similarity_pb";
import { StateService } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { startServiceProcess, type ServiceProcess } from "../support/service-process.js";
import { run } from "../support/tools.js";

/** Options of {@link runCrashTest}. */
export interface CrashOptions {
  /** SIGKILLs to deliver. */
  readonly kills: number;
  /** Seed of the random kill moments and client choices (printed on failure). */
  readonly seed: number;
  /** Data directory of the server (CRS_STATE_DATA_DIR). */
  readonly dir: string;
  /** Concurrent clients. @defaultValue 8 */
  readonly clients?: number;
  /** Projects the clients spread over. @defaultValue 3 */
  readonly projects?: number;
  /** Most ms between the first acknowledgement after a restart and the kill. @defaultValue 150 */
  readonly maxRunMs?: number;
  /** Journal records between state snapshots in the server. @defaultValue 25 */
  readonly snapshotEveryRecords?: number;
  /** Progress lines. */
  readonly log?: (line: string) => void;
}

/** What a run did. */
export interface CrashReport {
  /** Kills delivered. */
  kills: number;
  /** Applies acknowledged. */
  acked: number;
  /** Applies in flight at a kill (settled by retry after the restart). */
  inFlightAtKill: number;
  /** Of those, how many the retry found already applied (answered as replays). */
  appliedBeforeKill: number;
  /** Retries of acknowledged request ids that answered their first result. */
  replaysChecked: number;
}

function clients(port: number) {
  const insecure = { credentials: credentials.createInsecure() };
  return {
    state: createClient(StateService, `127.0.0.1:${port}`, insecure),
    similarity: createClient(SimilarityService, `127.0.0.1:${port}`, insecure),
  };
}
type Clients = ReturnType<typeof clients>;

/** The first answer of an apply, as compared with its retries. */
function answerKey(header: { projectUid: string; generation: bigint } | undefined): string {
  return `${header?.projectUid}@${header?.generation}`;
}

function apply(c: Clients, project: string, key: string) {
  return c.state.apply({
    projectId: project,
    delta: { source: SignalSource.SOFT, kind: { case: "similarity", value: { updates: [{ a: key, b: "hub", distance: 1 }] } } },
    options: { requestId: key },
  });
}

async function applied(c: Clients, project: string): Promise<{ generation: bigint; keys: Set<string> }> {
  const keys = new Set<string>();
  let pageToken = "";
  let generation = -1n;
  do {
    const page = await c.similarity.listSimilarityPairs({ projectId: project, pageSize: 1000, pageToken });
    generation = page.header?.generation ?? -1n;
    for (const p of page.pairs) keys.add(p.a === "hub" ? p.b : p.a);
    pageToken = page.nextPageToken;
  } while (pageToken !== "");
  return { generation, keys };
}

/** Runs the crash test; throws an AssertionError naming the seed when a check fails. */
export async function runCrashTest(options: CrashOptions): Promise<CrashReport> {
  const built = await run(process.execPath, ["--import", "tsx", "scripts/build.ts", "crs-state"]);
  assert.equal(built.code, 0, `build: ${built.stderr}`);
  const rng = createPrng(options.seed);
  const projects = Array.from({ length: options.projects ?? 3 }, (_, i) => `crash-${i}`);
  const acked = new Map(projects.map((p) => [p, new Map<string, string>()]));
  let inFlight: { project: string; key: string }[] = [];
  const report: CrashReport = { kills: 0, acked: 0, inFlightAtKill: 0, appliedBeforeKill: 0, replaysChecked: 0 };
  let counter = 0;
  const where = () => `(seed ${options.seed}, after kill ${report.kills})`;
  const env = {
    CRS_STATE_DATA_DIR: options.dir,
    CRS_STATE_SNAPSHOT_EVERY_RECORDS: String(options.snapshotEveryRecords ?? 25),
    LOG_LEVEL: "info",
  };

  for (let round = 0; round <= options.kills; round++) {
    const server: ServiceProcess = await startServiceProcess("crs-state", env, "built");
    const c = clients(server.port);
    try {
      for (const p of projects)
        await c.state.createProject({ projectId: p, config: { maxSimilarityPairs: 1_000_000 }, requestId: `create-${p}` });
      // What the previous life left: every acknowledged apply, and generation = applied deltas.
      const before = new Map<string, Set<string>>();
      for (const p of projects) {
        const { generation, keys } = await applied(c, p);
        for (const k of (acked.get(p) as Map<string, string>).keys())
          assert.ok(keys.has(k), `acknowledged ${p}/${k} is present ${where()}`);
        assert.equal(generation, BigInt(keys.size), `generation of ${p} equals the applied deltas ${where()}`);
        before.set(p, keys);
      }
      // Requests in flight at the kill: the retry is a replay exactly when the first attempt landed.
      for (const { project, key } of inFlight) {
        const r = await apply(c, project, key);
        const landed = (before.get(project) as Set<string>).has(key);
        assert.equal(r.header?.replayed, landed, `retry of in-flight ${project}/${key} is a replay exactly when it had landed ${where()}`);
        if (landed) report.appliedBeforeKill++;
        (acked.get(project) as Map<string, string>).set(key, answerKey(r.header));
      }
      inFlight = [];
      // Acknowledged request ids answer their first result.
      for (const p of projects) {
        const entries = [...(acked.get(p) as Map<string, string>)];
        for (let i = 0; i < Math.min(2, entries.length); i++) {
          const [key, first] = entries[rng.int(0, entries.length - 1)] as [string, string];
          const r = await apply(c, p, key);
          assert.equal(r.header?.replayed, true, `retry of acknowledged ${p}/${key} is a replay ${where()}`);
          assert.equal(answerKey(r.header), first, `retry of ${p}/${key} answers the first result ${where()}`);
          report.replaysChecked++;
        }
      }
      if (round === options.kills) break;
      // Concurrent clients until a kill at a random moment.
      let alive = true;
      let firstAck: () => void = () => undefined;
      const acking = new Promise<void>((r) => {
        firstAck = r;
      });
      const pending = new Map<string, { project: string; key: string }>();
      const drive = async () => {
        while (alive) {
          const project = projects[rng.int(0, projects.length - 1)] as string;
          const key = `k${counter++}`;
          pending.set(key, { project, key });
          let header;
          try {
            header = (await apply(c, project, key)).header;
          } catch (e) {
            if (!alive) return;
            throw new assert.AssertionError({ message: `apply ${project}/${key}: ${(e as ServiceError).message} ${where()}` });
          }
          pending.delete(key);
          (acked.get(project) as Map<string, string>).set(key, answerKey(header));
          report.acked++;
          firstAck();
        }
      };
      const runs = Array.from({ length: options.clients ?? 8 }, () => drive());
      // The kill lands at a random moment after traffic is flowing (or after 10 s without any ack).
      await Promise.race([acking, new Promise((r) => setTimeout(r, 10_000))]);
      await new Promise((r) => setTimeout(r, rng.int(0, Math.max(0, (options.maxRunMs ?? 150) - 1))));
      alive = false;
      await server.stop("SIGKILL");
      await Promise.all(runs);
      inFlight = [...pending.values()];
      report.inFlightAtKill += inFlight.length;
      report.kills++;
      if (report.kills % 10 === 0)
        options.log?.(
          `crash-test: ${report.kills} kills, ${report.acked} acknowledged, ${report.appliedBeforeKill} of ${report.inFlightAtKill} in flight had landed`,
        );
    } finally {
      c.state.close();
      c.similarity.close();
      await server.stop("SIGKILL");
    }
  }
  return report;
}
