import { test } from "node:test";
import { spawn, spawnSync } from "node:child_process";
import assert from "node:assert/strict";
import type { Logger } from "@crs/runtime";
import { eventually, freePort } from "@crs/runtime/testing";
import { RedisConnection } from "./redis-connection.js";

// The warnings (fields as JSON, then the message) a connection to nothing logs within `settleMs` of its first.
async function unreachableWarnings(url: string, settleMs: number): Promise<{ fields: string[]; messages: string[] }> {
  const fields: string[] = [];
  const messages: string[] = [];
  const warn = (f: unknown, message: string): void => {
    fields.push(JSON.stringify(f));
    messages.push(message);
  };
  const logger = { warn, info: () => undefined } as unknown as Logger;
  const redis = new RedisConnection({ url, logger, onReadyChange: () => undefined, maxRetryDelayMs: 50 });
  redis.start();
  try {
    assert.ok(await eventually(() => messages.length > 0, 5_000), "a warning is logged");
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    return { fields, messages };
  } finally {
    await redis.close();
  }
}

test("an unreachable Redis is logged once as not reachable at its URL, with no claim about scans and no password", async () => {
  const { messages } = await unreachableWarnings("redis://user:secret@127.0.0.1:1", 300);
  assert.equal(messages.length, 1, "one line, not one per retry");
  const [message = ""] = messages;
  assert.match(message, /^Redis is not reachable at redis:\/\/\S*127\.0\.0\.1:1\b/, message);
  assert.doesNotMatch(message, /scan/i, "the service serves no scans yet, so the line promises none");
  assert.doesNotMatch(message, /secret/, "credentials redacted");
});

test("a REDIS_URL password holding @ is masked whole in the log line and its redis field", async () => {
  const { fields, messages } = await unreachableWarnings("redis://:pa@ss-word@127.0.0.1:1", 0);
  const logged = [...fields, ...messages].join("\n");
  assert.match(logged, /"redis":"redis:\/\/\*\*\*@127\.0\.0\.1:1"/, "the host is still named");
  assert.doesNotMatch(logged, /ss-word|pa@/, `no part of the password: ${logged}`);
});

const haveRedisServer = spawnSync("redis-server", ["--version"]).status === 0;

test("a REDIS_URL database that Redis refuses never counts as connected, instead of the connection working in database 0", {
  skip: !haveRedisServer && process.env["CI"] !== "true" && "redis-server is not installed",
}, async () => {
  const port = await freePort();
  const server = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--databases", "2"],
    {
      stdio: "ignore",
    },
  );
  const connections = [5, 1].map((db) => {
    const changes: boolean[] = [];
    const logger = { warn: () => undefined, info: () => undefined } as unknown as Logger;
    const redis = new RedisConnection({
      url: `redis://127.0.0.1:${port}/${db}`,
      logger,
      onReadyChange: (ready) => changes.push(ready),
      maxRetryDelayMs: 50,
    });
    redis.start();
    return { redis, changes };
  });
  const [refused, accepted] = connections as [(typeof connections)[0], (typeof connections)[0]];
  try {
    assert.ok(await eventually(() => accepted.redis.ready, 10_000), "a database Redis has is connected");
    assert.ok(
      await eventually(() => refused.redis.client.status === "ready", 10_000),
      "the client itself calls the refused connection ready",
    );
    // A reply after the check's own SELECT: the check has finished.
    await refused.redis.client.ping();
    assert.equal(refused.redis.ready, false, "database 5 of 2 is not ready");
    assert.deepEqual(refused.changes, [], "and never reported ready");
  } finally {
    for (const { redis } of connections) await redis.close();
    server.kill("SIGKILL");
  }
});

test("a Redis that comes up refusing the password is logged as refusing it, not left at unreachable, and each problem once", {
  skip: !haveRedisServer && process.env["CI"] !== "true" && "redis-server is not installed",
}, async () => {
  const port = await freePort();
  const warnings: string[] = [];
  const logger = { warn: (_: unknown, message: string) => void warnings.push(message), info: () => undefined } as unknown as Logger;
  const redis = new RedisConnection({
    url: `redis://:s3cret-pw@127.0.0.1:${port}`,
    logger,
    onReadyChange: () => undefined,
    maxRetryDelayMs: 50,
  });
  redis.start();
  let server: ReturnType<typeof spawn> | undefined;
  try {
    assert.ok(await eventually(() => warnings.length === 1, 10_000), "nothing listens yet");
    assert.match(warnings[0] ?? "", /not reachable/);
    server = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--requirepass", "right"],
      {
        stdio: "ignore",
      },
    );
    assert.ok(await eventually(() => warnings.length > 1, 10_000), `the refusal is logged: ${warnings.join(" | ")}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(warnings.length, 2, `one line per problem, not one per retry: ${warnings.join(" | ")}`);
    const message = warnings[1] ?? "";
    assert.match(message, /refused .*password/, message);
    assert.doesNotMatch(message, /s3cret-pw/, "credentials redacted");
    assert.equal(redis.ready, false, "not connected");
  } finally {
    await redis.close();
    server?.kill("SIGKILL");
  }
});
