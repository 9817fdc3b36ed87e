import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { HealthCheckResponse_ServingStatus as Serving } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { startServiceProcess } from "../support/service-process.js";
import { eventually, freePort } from "@crs/runtime/testing";
import { healthClient, scanServiceServes } from "../support/clients.js";

const SCAN_SERVICE = "crs.analytics.v1.ScanService";

const haveRedisServer = spawnSync("redis-server", ["--version"]).status === 0;

test("rollout-analytics retries Redis: the scan service is NOT_SERVING until Redis appears, SERVING while it runs (once it serves calls), NOT_SERVING when it goes", {
  skip: !haveRedisServer && process.env["CI"] !== "true" && "redis-server is not installed",
}, async () => {
  const port = await freePort();
  const service = await startServiceProcess("rollout-analytics", { REDIS_URL: `redis://127.0.0.1:${port}` });
  const health = healthClient(service.port);
  // Health never vouches for a service whose methods all answer UNIMPLEMENTED, Redis or not.
  const whileRedisRuns = (await scanServiceServes(service.port)) ? Serving.SERVING : Serving.NOT_SERVING;
  const scanHealth = async () => (await health.check({ service: SCAN_SERVICE })).status;
  const waitFor = async (wanted: Serving) => {
    await eventually(async () => (await scanHealth()) === wanted, 20_000, 50);
    return scanHealth();
  };
  let redis: ChildProcess | undefined;
  try {
    assert.equal(await scanHealth(), Serving.NOT_SERVING, "no Redis yet");
    redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    // The client backs off up to 5 s between attempts, so allow for one full pause.
    assert.ok(
      await eventually(() => service.logs.some((l) => l["msg"] === "Redis connected"), 15_000),
      "the connection is made and logged",
    );
    assert.equal(await waitFor(whileRedisRuns), whileRedisRuns, "SERVING once Redis answers, if the service serves calls");
    redis.kill("SIGTERM");
    await once(redis, "exit");
    assert.equal(await waitFor(Serving.NOT_SERVING), Serving.NOT_SERVING, "NOT_SERVING when Redis goes away");
  } finally {
    if (redis !== undefined && redis.exitCode === null) redis.kill("SIGKILL");
    health.close();
    await service.stop();
  }
});
