import { test } from "node:test";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { Redis } from "ioredis";
import type { Logger } from "@crs/runtime";
import { eventually, freePort, repoRoot } from "@crs/runtime/testing";
import { RedisConnection } from "./redis-connection.js";

const haveRedisServer = spawnSync("redis-server", ["--version"]).status === 0;
const needsRedis = { skip: !haveRedisServer && process.env["CI"] !== "true" && "redis-server is not installed" };

// Short enough that every wait below stays well under a few seconds.
const INTERVAL_MS = 100;
const TIMEOUT_MS = 300;

// A private Redis this test may freeze; the shared one on 6379 is never signalled.
async function privateRedis(): Promise<{ server: ChildProcess; port: number; url: string }> {
  const port = await freePort();
  const server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  return { server, port, url: `redis://127.0.0.1:${port}` };
}

function stopRedis(server: ChildProcess): void {
  // A stopped process is woken first, so nothing is left frozen if an assertion failed mid-hang.
  server.kill("SIGCONT");
  server.kill("SIGKILL");
}

// Log lines by level, as the connection writes them.
function recordingLogger(): { logger: Logger; warnings: string[]; infos: string[] } {
  const warnings: string[] = [];
  const infos: string[] = [];
  const logger = {
    warn: (_: unknown, message: string) => void warnings.push(message),
    info: (_: unknown, message: string) => void infos.push(message),
  } as unknown as Logger;
  return { logger, warnings, infos };
}

// PINGs Redis has answered so far, read with a connection of the test's own.
async function pingsAnswered(url: string): Promise<number> {
  const probe = new Redis(url, { lazyConnect: true });
  try {
    await probe.connect();
    const stats = await probe.info("commandstats");
    return Number(/cmdstat_ping:calls=(\d+)/.exec(stats)?.[1] ?? 0);
  } finally {
    probe.disconnect();
  }
}

test(
  "a Redis that hangs with its connection open counts as not ready within the PING bound, logged once, and ready again (logged once) when it answers",
  needsRedis,
  async () => {
    const { server, url } = await privateRedis();
    const { logger, warnings, infos } = recordingLogger();
    const changes: boolean[] = [];
    const redis = new RedisConnection({
      url,
      logger,
      onReadyChange: (ready) => changes.push(ready),
      maxRetryDelayMs: 50,
      pingIntervalMs: INTERVAL_MS,
      pingTimeoutMs: TIMEOUT_MS,
    });
    redis.start();
    try {
      assert.ok(await eventually(() => redis.ready, 10_000), "connected");
      const pingsBefore = await pingsAnswered(url);
      server.kill("SIGSTOP");
      const stoppedAt = Date.now();
      assert.ok(await eventually(() => !redis.ready, 5_000, 10), "a frozen Redis is not ready");
      const noticedMs = Date.now() - stoppedAt;
      // One interval until the PING is sent, the timeout, and slack for a busy machine.
      assert.ok(noticedMs <= INTERVAL_MS + TIMEOUT_MS + 1_000, `noticed after ${noticedMs} ms`);
      assert.equal(redis.client.status, "ready", "the client still calls the connection open: only the PING noticed");
      // Several more intervals pass while it stays frozen.
      await new Promise((resolve) => setTimeout(resolve, 5 * INTERVAL_MS));
      const unresponsive = warnings.filter((w) => /unresponsive/.test(w));
      assert.equal(unresponsive.length, 1, `logged once, not once per PING: ${warnings.join(" | ")}`);
      assert.match(unresponsive[0] ?? "", new RegExp(`127\\.0\\.0\\.1:\\d+ is unresponsive: a PING got no answer within ${TIMEOUT_MS} ms`));
      server.kill("SIGCONT");
      assert.ok(await eventually(() => redis.ready, 5_000, 10), "ready again once Redis answers");
      // One PING waited out the hang, instead of a new one joining it every interval.
      const pingsAround = (await pingsAnswered(url)) - pingsBefore;
      assert.ok(pingsAround <= 3, `${pingsAround} PINGs answered from the freeze to the recovery`);
      await new Promise((resolve) => setTimeout(resolve, 3 * INTERVAL_MS));
      assert.deepEqual(changes, [true, false, true], "readiness went down once and came back once");
      assert.equal(infos.filter((i) => /answers again/.test(i)).length, 1, `recovery logged once: ${infos.join(" | ")}`);
      assert.equal(infos.filter((i) => i === "Redis connected").length, 1, "the connection itself was never lost");
    } finally {
      await redis.close();
      stopRedis(server);
    }
  },
);

test(
  "a closed connection stops its PINGs at once: a Redis frozen past the PING timeout is not logged unresponsive after the close",
  needsRedis,
  async () => {
    const { server, url } = await privateRedis();
    const { logger, warnings } = recordingLogger();
    const changes: boolean[] = [];
    const redis = new RedisConnection({
      url,
      logger,
      onReadyChange: (ready) => changes.push(ready),
      pingIntervalMs: INTERVAL_MS,
      pingTimeoutMs: TIMEOUT_MS,
    });
    redis.start();
    try {
      assert.ok(await eventually(() => redis.ready, 10_000), "connected");
      server.kill("SIGSTOP");
      await redis.close();
      // The client waits up to 2 s for a frozen Redis to acknowledge the close before it drops the
      // socket, far past the PING timeout: only a check stopped by the close itself stays silent.
      assert.ok(await eventually(() => changes.length === 2, 5_000), "the close is reported once the socket is gone");
      assert.deepEqual(changes, [true, false], "only the close itself was reported");
      assert.deepEqual(
        warnings.filter((w) => /unresponsive/.test(w)),
        [],
        "no PING outlived the close",
      );
    } finally {
      stopRedis(server);
    }
  },
);

// Runs in a child: connects, and closes the connection `closeAfterMs` after it is ready, printing "ready" first.
const CHILD = `
import { RedisConnection } from ${JSON.stringify(fileURLToPath(new URL("./redis-connection.ts", import.meta.url)))};
const silent = { warn() {}, info() {} };
const [url, intervalMs, timeoutMs, closeAfterMs] = process.argv.slice(1);
const redis = new RedisConnection({
  url, logger: silent, pingIntervalMs: Number(intervalMs), pingTimeoutMs: Number(timeoutMs),
  onReadyChange: (ready) => {
    if (!ready) return;
    process.stdout.write("ready\\n");
    setTimeout(() => void redis.close(), Number(closeAfterMs));
  },
});
redis.start();
`;

test(
  "the PING timers never keep the process alive: a process exits once its connection is closed, though its next PING or its timeout is a minute away",
  needsRedis,
  async () => {
    const { server, url } = await privateRedis();
    try {
      // [interval, timeout, freeze Redis once ready]: the next PING far off; a PING in flight to a frozen Redis with a far-off timeout.
      for (const [intervalMs, timeoutMs, freeze] of [
        [60_000, 60_000, false],
        [50, 60_000, true],
      ] as const) {
        const child = spawn(
          process.execPath,
          ["--import", "tsx", "--input-type=module", "-e", CHILD, url, String(intervalMs), String(timeoutMs), "400"],
          {
            cwd: repoRoot(),
            stdio: ["ignore", "pipe", "inherit"],
          },
        );
        const exited = once(child, "exit");
        try {
          const lines = createInterface({ input: child.stdout! });
          const [line] = (await Promise.race([once(lines, "line"), exited.then(() => ["exited"])])) as string[];
          assert.equal(line, "ready", "the child connected");
          if (freeze) server.kill("SIGSTOP");
          const readyAt = Date.now();
          const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
          const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
          clearTimeout(timer);
          assert.deepEqual(
            [code, signal],
            [0, null],
            `interval ${intervalMs} ms: exits by itself after close (${Date.now() - readyAt} ms)`,
          );
        } finally {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
          server.kill("SIGCONT");
        }
      }
    } finally {
      stopRedis(server);
    }
  },
);
