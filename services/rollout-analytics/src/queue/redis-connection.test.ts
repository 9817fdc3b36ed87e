import { test } from "node:test";
import assert from "node:assert/strict";
import type { Logger } from "@crs/runtime";
import { eventually } from "@crs/runtime/testing";
import { RedisConnection } from "./redis-connection.js";

test("an unreachable Redis is logged once as not reachable at its URL, with no claim about scans and no password", async () => {
  const warnings: string[] = [];
  const logger = { warn: (_: unknown, message: string) => void warnings.push(message), info: () => undefined } as unknown as Logger;
  const redis = new RedisConnection({
    url: "redis://user:secret@127.0.0.1:1",
    logger,
    onReadyChange: () => undefined,
    maxRetryDelayMs: 50,
  });
  redis.start();
  try {
    assert.ok(await eventually(() => warnings.length > 0, 5_000), "a warning is logged");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(warnings.length, 1, "one line, not one per retry");
    const [message = ""] = warnings;
    assert.match(message, /^Redis is not reachable at redis:\/\/\S*127\.0\.0\.1:1\b/, message);
    assert.doesNotMatch(message, /scan/i, "the service serves no scans yet, so the line promises none");
    assert.doesNotMatch(message, /secret/, "credentials redacted");
  } finally {
    await redis.close();
  }
});
