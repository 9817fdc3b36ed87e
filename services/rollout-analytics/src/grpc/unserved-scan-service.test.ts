import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentials, status, type Metadata } from "@grpc/grpc-js";
import { Redis } from "ioredis";
import { createClient, errorDetailOf, startService, type ClientCallOptions, type RunningService, type TypedClient } from "@crs/runtime";
import { eventually, freePort, rejection } from "@crs/runtime/testing";
import { ScanService } from "@crs/contracts/gen/crs/analytics/v1/scan_pb";
import { Health, HealthCheckResponse_ServingStatus as Serving } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { rolloutAnalytics } from "../service.js";

const TOKEN = "scan-token";
const haveRedisServer = spawnSync("redis-server", ["--version"]).status === 0;

type ScanClient = TypedClient<typeof ScanService.method>;

// Reads a server stream to its end, so its status surfaces as a rejection.
async function drain(stream: AsyncIterable<unknown>): Promise<number> {
  let messages = 0;
  for await (const _ of stream) messages++;
  return messages;
}

// One call of every ScanService method, each with the given call options.
function everyMethod(scans: ScanClient, options: ClientCallOptions): [string, () => Promise<unknown>][] {
  const projectId = "demo";
  const calls: [string, () => Promise<unknown>][] = [
    ["SubmitScan", () => scans.submitScan({ projectId }, options)],
    ["GetScan", () => scans.getScan({ projectId, scanId: "s1" }, options)],
    ["WatchScan", () => drain(scans.watchScan({ projectId, scanId: "s1" }, options))],
    ["ListScans", () => scans.listScans({ projectId }, options)],
    ["CancelScan", () => scans.cancelScan({ projectId, scanId: "s1" }, options)],
  ];
  assert.equal(calls.length, ScanService.methods.length, "every method is called");
  return calls;
}

// Asserts the code, the ErrorInfo reason and domain of a failed call, and returns its message.
async function expectFailure(call: Promise<unknown>, code: status, reason: string): Promise<string> {
  const error = await rejection(call);
  const detail = errorDetailOf(error as { metadata?: Metadata });
  assert.deepEqual([error.code, detail?.reason, detail?.domain], [code, reason, "crs.analytics.v1"], error.message);
  return error.details;
}

describe("ScanService, which this server does not serve yet", () => {
  const dir = mkdtempSync(join(tmpdir(), "scan-auth-"));
  const tokenFile = join(dir, "token");
  writeFileSync(tokenFile, `${TOKEN}\n`);
  let redisPort: number;
  let redis: ChildProcess | undefined;
  let running: RunningService;
  let scans: ScanClient;
  before(async () => {
    redisPort = await freePort();
    // A private Redis, so the test can tell when the service's connection is up and answering.
    if (haveRedisServer)
      redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
        stdio: "ignore",
      });
    running = await startService(rolloutAnalytics, {
      GRPC_ADDRESS: "127.0.0.1:0",
      METRICS_ADDRESS: "127.0.0.1:0",
      LOG_LEVEL: "silent",
      AUTH_TOKEN_FILE: tokenFile,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REDIS_PING_INTERVAL_MS: "100",
    });
    scans = createClient(ScanService, `127.0.0.1:${running.port}`, { credentials: credentials.createInsecure() });
  });
  after(async () => {
    scans.close();
    await running.stop();
    redis?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers every method UNIMPLEMENTED with ErrorInfo reason UNIMPLEMENTED naming the method, not a bare status clients cannot branch on", async () => {
    for (const [method, call] of everyMethod(scans, { headers: { authorization: `Bearer ${TOKEN}` } })) {
      const message = await expectFailure(call(), status.UNIMPLEMENTED, "UNIMPLEMENTED");
      assert.match(message, new RegExp(`crs\\.analytics\\.v1\\.ScanService\\.${method} is not served by this server yet`), method);
    }
  });

  it("checks the bearer token first: a call without it or with a wrong one is UNAUTHENTICATED, not UNIMPLEMENTED", async () => {
    for (const options of [{}, { headers: { authorization: "Bearer wrong" } }]) {
      for (const [method, call] of everyMethod(scans, options)) {
        const message = await expectFailure(call(), status.UNAUTHENTICATED, "UNAUTHENTICATED");
        assert.doesNotMatch(message, /not served/, `${method}: nothing about the method reaches an unauthenticated caller`);
      }
    }
  });

  it("stays NOT_SERVING in health while Redis is connected and answering, though every method now has a handler", {
    skip: !haveRedisServer && process.env["CI"] !== "true" && "redis-server is not installed",
  }, async () => {
    const health = createClient(Health, `127.0.0.1:${running.port}`, { credentials: credentials.createInsecure() });
    const probe = new Redis(`redis://127.0.0.1:${redisPort}`);
    try {
      // A liveness PING on the service's connection means it reported Redis ready before sending it.
      assert.ok(
        await eventually(async () => / cmd=ping /.test(await probe.client("LIST").then(String)), 10_000, 50),
        "the service's connection is ready and pinging",
      );
      assert.equal((await health.check({ service: ScanService.typeName })).status, Serving.NOT_SERVING, "unserved");
      assert.equal((await health.check({ service: "crs.analytics.v1.RetentionService" })).status, Serving.SERVING, "served ones serve");
    } finally {
      probe.disconnect();
      health.close();
    }
  });
});
