import { test, type TestContext } from "node:test";
import { spawn, spawnSync } from "node:child_process";
import { connect } from "node:net";
import assert from "node:assert/strict";
import { startService, type RunningService } from "@crs/runtime";
import { eventually, freePort } from "@crs/runtime/testing";
import { rolloutAnalytics } from "../service.js";

const REDIS_URL = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379";
const haveRedisServer = spawnSync("redis-server", ["--version"]).status === 0;

// Skips when nothing listens at REDIS_URL on a developer machine; under CI that is a failure.
async function requireRedis(t: TestContext): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  const socket = connect({ host: hostname, port: Number(port) });
  const reachable = await new Promise<boolean>((resolve) => {
    socket.on("connect", () => resolve(true));
    socket.on("error", () => resolve(false));
    socket.setTimeout(1_000, () => resolve(false));
  });
  socket.destroy();
  if (reachable) return true;
  const message = `Redis is not reachable at ${REDIS_URL}; start redis-server or set REDIS_URL`;
  if (process.env["CI"] === "true") assert.fail(message);
  t.skip(message);
  return false;
}

// Starts the service against `redisUrl`, pinging every 100 ms with a 300 ms timeout.
function start(redisUrl: string): Promise<RunningService> {
  return startService(rolloutAnalytics, {
    GRPC_ADDRESS: "127.0.0.1:0",
    METRICS_ADDRESS: "127.0.0.1:0",
    LOG_LEVEL: "silent",
    REDIS_URL: redisUrl,
    REDIS_PING_INTERVAL_MS: "100",
    REDIS_PING_TIMEOUT_MS: "300",
  });
}

// The /metrics page, and the value of one of its sample lines (`name value`), or undefined.
async function scrape(running: RunningService): Promise<string> {
  return (await fetch(`http://127.0.0.1:${running.metricsPort}/metrics`)).text();
}
async function sample(running: RunningService, series: string): Promise<number | undefined> {
  const line = (await scrape(running)).split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test("a Redis that answers reads rollout_analytics_redis_up 1 on /metrics, with each PING's round trip timed", async (t) => {
  if (!(await requireRedis(t))) return;
  const running = await start(REDIS_URL);
  try {
    assert.ok(await eventually(async () => (await sample(running, "rollout_analytics_redis_up")) === 1, 10_000, 50), "up once connected");
    assert.ok(
      await eventually(async () => ((await sample(running, "rollout_analytics_redis_ping_seconds_count")) ?? 0) >= 2, 5_000, 50),
      "PINGs are timed",
    );
    const sum = (await sample(running, "rollout_analytics_redis_ping_seconds_sum")) ?? Number.NaN;
    assert.ok(sum > 0 && sum < 1, `loopback PINGs take well under a second in total so far: ${sum}`);
    const page = await scrape(running);
    for (const name of ["rollout_analytics_redis_up", "rollout_analytics_redis_ping_seconds"])
      assert.match(page, new RegExp(`^# HELP ${name} \\S`, "m"), `${name} has a help text`);
    assert.match(page, /^# TYPE rollout_analytics_redis_up gauge$/m);
    assert.match(page, /^# TYPE rollout_analytics_redis_ping_seconds histogram$/m);
  } finally {
    await running.stop();
  }
});

test("an unreachable Redis reads rollout_analytics_redis_up 0 on /metrics, with no PING timed", async () => {
  const running = await start("redis://127.0.0.1:1");
  try {
    // Several refused connection attempts, at the client's shortest backoff.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await sample(running, "rollout_analytics_redis_up"), 0, "down");
    assert.equal(await sample(running, "rollout_analytics_redis_ping_seconds_count"), 0, "nothing answered");
  } finally {
    await running.stop();
  }
});

test("a Redis that hangs with its connection open reads rollout_analytics_redis_up 0 within the PING timeout, and 1 once it answers", {
  skip: !haveRedisServer && process.env["CI"] !== "true" && "redis-server is not installed",
}, async () => {
  // A private Redis this test may freeze; the shared one is never signalled.
  const port = await freePort();
  const server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  const running = await start(`redis://127.0.0.1:${port}`);
  const up = async (): Promise<number | undefined> => sample(running, "rollout_analytics_redis_up");
  try {
    assert.ok(await eventually(async () => (await up()) === 1, 10_000, 50), "up once connected");
    server.kill("SIGSTOP");
    assert.ok(await eventually(async () => (await up()) === 0, 5_000, 50), "down while a PING is unanswered");
    server.kill("SIGCONT");
    assert.ok(await eventually(async () => (await up()) === 1, 5_000, 50), "up again once it answers");
    const slowest = (await scrape(running)).match(/^rollout_analytics_redis_ping_seconds_bucket\{le="0\.25"\} (\d+)$/m);
    const count = await sample(running, "rollout_analytics_redis_ping_seconds_count");
    assert.ok(slowest !== null && Number(slowest[1]) < (count ?? 0), "the PING that waited out the hang is timed as a slow one");
  } finally {
    server.kill("SIGCONT");
    server.kill("SIGKILL");
    await running.stop();
  }
});
