import { connect } from "node:net";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";

/** The Redis the tests use. */
export const redisUrl = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379";

// Resolves whether something accepts TCP connections at the host and port of `url`.
function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * Skips the test, with a message, when Redis is not reachable on a developer machine; under CI,
 * where .ci/run starts Redis, an unreachable Redis fails the test instead.
 */
export async function requireRedis(t: TestContext): Promise<boolean> {
  if (await reachable(redisUrl)) return true;
  const message = `Redis is not reachable at ${redisUrl}; start redis-server or set REDIS_URL`;
  if (process.env["CI"] === "true") assert.fail(message);
  t.skip(message);
  return false;
}
