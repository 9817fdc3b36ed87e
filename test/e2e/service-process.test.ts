import { test } from "node:test";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";
import { credentials, status, type ServiceError } from "@grpc/grpc-js";
import { HealthCheckResponse_ServingStatus as Serving } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { failedStart, startServiceProcess } from "../support/service-process.js";
import { eventually } from "@crs/runtime/testing";
import { createClient, errorDetailOf } from "@crs/runtime";
import { StateService } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { healthClient, maintenanceClient, rolloutClient, scanServiceServes } from "../support/clients.js";
import { redisUrl, requireRedis } from "../support/backends.js";

test("crs-state: SIGTERM with a server stream open ends the stream and exits 0 within the drain bound", async () => {
  const drainMs = 5000;
  const service = await startServiceProcess("crs-state", { SHUTDOWN_DRAIN_MS: String(drainMs) });
  const health = healthClient(service.port);
  try {
    const updates: Serving[] = [];
    const stream = (async () => {
      try {
        for await (const update of health.watch({ service: "" })) updates.push(update.status);
        return undefined;
      } catch (error) {
        return error as ServiceError;
      }
    })();
    await eventually(() => updates.length > 0);
    assert.deepEqual(updates, [Serving.SERVING], "the watch stream is open and reports SERVING");
    const started = Date.now();
    const code = await service.stop("SIGTERM");
    const elapsed = Date.now() - started;
    await stream;
    assert.equal(code, 0, "the process exits 0");
    assert.ok(elapsed < drainMs, `exit within the drain bound of ${drainMs} ms (took ${elapsed} ms)`);
    assert.equal(updates.at(-1), Serving.NOT_SERVING, "health turned NOT_SERVING before the stream ended");
    assert.ok(
      service.logs.some((l) => l["msg"] === "stopping"),
      "the stop is logged",
    );
  } finally {
    health.close();
    await service.stop("SIGKILL");
  }
});

test("a second SIGINT during the drain does not kill the process: the open call is answered SHUTTING_DOWN and it exits 0", async () => {
  const service = await startServiceProcess("rollout-analytics", { SHUTDOWN_DRAIN_MS: "1500", REDIS_URL: "redis://127.0.0.1:1" });
  const client = rolloutClient(service.port);
  let finish = (): void => undefined;
  let sent = (): void => undefined;
  const firstSent = new Promise<void>((resolve) => (sent = resolve));
  // An upload that stays open until the test ends it, so the call is in flight when the signals come.
  async function* upload() {
    yield { part: { case: "upload" as const, value: { projectId: "demo", nowUnixMs: 1_780_000_000_000n } } };
    sent();
    await new Promise<void>((resolve) => (finish = resolve));
  }
  try {
    const call = client.analyzeRollout(upload()).then(
      () => undefined,
      (error: ServiceError) => error,
    );
    await firstSent;
    // A round trip through the server's event loop, so the upload that was sent before it has arrived.
    await fetch(`http://127.0.0.1:${service.metricsPort}/metrics`);
    service.child.kill("SIGINT");
    assert.ok(await eventually(() => service.logs.some((l) => l["msg"] === "stopping")), "the first SIGINT starts the drain");
    // What a terminal's Ctrl-C under npm or pnpm delivers: the group's signal, then the forwarded one.
    const code = await service.stop("SIGINT");
    const error = await call;
    assert.equal(code, 0, `the process exits 0 instead of dying of the second signal (${service.child.signalCode})`);
    assert.equal(error?.code, status.UNAVAILABLE, "the open call is answered UNAVAILABLE");
    assert.equal(errorDetailOf(error!)?.reason, "SHUTTING_DOWN", "with the shutdown reason");
    assert.ok(
      service.logs.some((l) => l["drained"] === false),
      "the call was still open when the drain ran out",
    );
  } finally {
    finish();
    client.close();
    await service.stop("SIGKILL");
  }
});

test("crs-state: serves status, validates ids with ErrorInfo, and reports every service SERVING, PersistenceService included", async () => {
  const service = await startServiceProcess("crs-state");
  const client = maintenanceClient(service.port);
  try {
    const statusReply = await client.getStatus({});
    assert.equal(statusReply.apiVersion, "crs.state.v1", "api version");
    assert.ok(statusReply.uptimeMs >= 0n, "uptime");
    await assert.rejects(
      client.getProjectStatus({ projectId: "../etc" }),
      (e: ServiceError) => e.code === status.INVALID_ARGUMENT && e.details.includes("project_id"),
      "bad id",
    );
    await assert.rejects(client.getProjectStatus({ projectId: "p1" }), (e: ServiceError) => e.code === status.NOT_FOUND, "unknown project");
    assert.deepEqual((await client.listProjects({})).projects, [], "no project before one is created");
    const health = healthClient(service.port);
    try {
      assert.equal((await health.check({ service: "crs.state.v1.StateService" })).status, Serving.SERVING, "store-backed services serve");
      assert.equal(
        (await health.check({ service: "crs.state.v1.PersistenceService" })).status,
        Serving.SERVING,
        "PersistenceService serves every method, backups included",
      );
    } finally {
      health.close();
    }
    const metrics = await (await fetch(`http://127.0.0.1:${service.metricsPort}/metrics`)).text();
    assert.match(
      metrics,
      /grpc_server_handled_total\{[^}]*grpc_method="GetProjectStatus"[^}]*grpc_code="NOT_FOUND"\} 1/,
      "metrics by method and code",
    );
  } finally {
    client.close();
    await service.stop();
  }
});

test("rollout-analytics: without Redis it starts, reports the queue service NOT_SERVING and says how to set REDIS_URL", async () => {
  const service = await startServiceProcess("rollout-analytics", { REDIS_URL: "redis://127.0.0.1:1" });
  const health = healthClient(service.port);
  try {
    assert.equal((await health.check({ service: "" })).status, Serving.SERVING, "the server itself serves");
    assert.equal((await health.check({ service: "crs.analytics.v1.ScanService" })).status, Serving.NOT_SERVING, "not served yet");
    assert.equal((await health.check({ service: "crs.analytics.v1.RetentionService" })).status, Serving.SERVING, "pure services serve");
    await eventually(() => service.logs.some((l) => String(l["msg"]).includes("REDIS_URL")));
    const lines = service.logs.filter((l) => String(l["msg"]).includes("REDIS_URL"));
    assert.equal(lines.length, 1, "one clear line on how to point at Redis, not one per retry");
  } finally {
    health.close();
    assert.equal(await service.stop(), 0, "exits 0 on SIGTERM");
  }
});

test("rollout-analytics: with Redis reachable the queue-backed service reports SERVING once it serves calls", async (t) => {
  if (!(await requireRedis(t))) return;
  const service = await startServiceProcess("rollout-analytics", { REDIS_URL: redisUrl });
  const health = healthClient(service.port);
  try {
    // A service whose methods all answer UNIMPLEMENTED stays NOT_SERVING whatever Redis does.
    const expected = (await scanServiceServes(service.port)) ? Serving.SERVING : Serving.NOT_SERVING;
    assert.ok(await eventually(() => service.logs.some((l) => l["msg"] === "Redis connected"), 15_000), "Redis is connected");
    const scanHealth = async () => (await health.check({ service: "crs.analytics.v1.ScanService" })).status;
    assert.ok(
      await eventually(async () => (await scanHealth()) === expected, 20_000, 50),
      "ScanService health follows Redis only when it serves calls",
    );
  } finally {
    health.close();
    await service.stop();
  }
});

test("a bad environment variable stops start-up with a message naming it", async () => {
  const cases = [
    ["crs-state", { GRPC_ADDRESS: "not-an-address" }, "GRPC_ADDRESS"],
    ["crs-state", { SHUTDOWN_DRAIN_MS: "soon" }, "SHUTDOWN_DRAIN_MS"],
    ["rollout-analytics", { LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    ["rollout-analytics", { MAX_LINE_BYTES: String(1024 * 1024 * 1024) }, "MAX_LINE_BYTES"],
    // A data directory below a file cannot be created.
    ["crs-state", { CRS_STATE_DATA_DIR: join(process.execPath, "data") }, "CRS_STATE_DATA_DIR"],
  ] as const;
  // The starts are independent, so they run side by side.
  const outcomes = await Promise.all(cases.map(([name, env]) => failedStart(name, env)));
  cases.forEach(([name, , variable], i) => {
    const { code, stderr } = outcomes[i]!;
    assert.equal(code, 1, `${name} exits 1 on a bad ${variable}`);
    assert.ok(stderr.includes(variable), `${name}: stderr names ${variable}: ${stderr}`);
    assert.doesNotMatch(stderr, /\n\s+at /, `${name}: one line, no stack trace: ${stderr}`);
  });
});

test("an address in use stops start-up with one line naming GRPC_ADDRESS, and grpc-js adds no line of its own", async () => {
  const taken = createServer().listen(0, "127.0.0.1");
  await once(taken, "listening");
  const { port } = taken.address() as { port: number };
  try {
    const { code, stderr } = await failedStart("crs-state", { GRPC_ADDRESS: `127.0.0.1:${port}` });
    assert.equal(code, 1);
    assert.deepEqual(stderr.trim().split("\n").length, 1, `one line: ${stderr}`);
    assert.match(stderr, new RegExp(`GRPC_ADDRESS=127\\.0\\.0\\.1:${port}.*EADDRINUSE`));
  } finally {
    taken.close();
  }
});

test("crs-state: a second process on the same CRS_STATE_DATA_DIR stops at start-up naming the held lock, so two writers never share one journal", async () => {
  // There is no shared journal between processes (docs/divergences.md): one owns the directory.
  const dir = await mkdtemp(join(tmpdir(), "crs-owner-"));
  const owner = await startServiceProcess("crs-state", { CRS_STATE_DATA_DIR: dir });
  const state = createClient(StateService, `127.0.0.1:${owner.port}`, { credentials: credentials.createInsecure() });
  try {
    await state.createProject({ projectId: "owned" });
    const { code, stderr } = await failedStart("crs-state", { CRS_STATE_DATA_DIR: dir });
    assert.equal(code, 1);
    assert.match(stderr, /CRS_STATE_DATA_DIR=.*LOCK.*another process/);
    assert.equal((await state.getGeneration({ projectId: "owned" })).header?.generation, 0n, "the owner serves on, its project intact");
  } finally {
    state.close();
    assert.equal(await owner.stop(), 0);
    await rm(dir, { recursive: true, force: true });
  }
});
