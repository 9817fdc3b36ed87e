import { test } from "node:test";
import assert from "node:assert/strict";
import { readEnv, RuntimeError } from "@crs/runtime";
import { ANALYTICS_ENV } from "./index.js";

test("a REDIS_URL that is not a redis:// URL stops start-up naming it, instead of connecting somewhere else", () => {
  for (const raw of ["localhost:6379", "127.0.0.1", "http://127.0.0.1:6379", "redis://"]) {
    assert.throws(
      () => readEnv(ANALYTICS_ENV, { REDIS_URL: raw }),
      (e: unknown) => e instanceof RuntimeError && e.message.includes("REDIS_URL"),
      raw,
    );
  }
  for (const raw of ["redis://127.0.0.1:6379", "rediss://user:secret@cache.internal:6380/2", "redis://[::1]:6379"]) {
    assert.equal(readEnv(ANALYTICS_ENV, { REDIS_URL: raw }).REDIS_URL, raw, raw);
  }
});

test("a REDIS_URL whose path is not a database number stops start-up naming it, instead of the client quietly using database 0", () => {
  for (const raw of [
    "redis://127.0.0.1:6379/queue",
    "redis://127.0.0.1:6379/-1",
    "redis://127.0.0.1:6379/1.5",
    "redis://127.0.0.1:6379/2/x",
  ]) {
    assert.throws(
      () => readEnv(ANALYTICS_ENV, { REDIS_URL: raw }),
      (e: unknown) => e instanceof RuntimeError && e.message.includes("REDIS_URL") && e.message.includes("database number"),
      raw,
    );
  }
  for (const raw of ["redis://127.0.0.1:6379/", "redis://127.0.0.1:6379/0", "rediss://cache.internal:6380/15"]) {
    assert.equal(readEnv(ANALYTICS_ENV, { REDIS_URL: raw }).REDIS_URL, raw, raw);
  }
});

test("a Redis PING interval or timeout that is not a whole number of at least 100 ms stops start-up naming it, instead of pinging in a busy loop", () => {
  for (const variable of ["REDIS_PING_INTERVAL_MS", "REDIS_PING_TIMEOUT_MS"]) {
    for (const raw of ["0", "99", "2.5", "5s", String(2 ** 31)]) {
      assert.throws(
        () => readEnv(ANALYTICS_ENV, { [variable]: raw }),
        (e: unknown) => e instanceof RuntimeError && e.message.includes(variable),
        `${variable}=${raw}`,
      );
    }
  }
  const defaults = readEnv(ANALYTICS_ENV, {});
  assert.deepEqual([defaults.REDIS_PING_INTERVAL_MS, defaults.REDIS_PING_TIMEOUT_MS], [5_000, 2_000], "every 5 s, answered within 2 s");
  const set = readEnv(ANALYTICS_ENV, { REDIS_PING_INTERVAL_MS: "1000", REDIS_PING_TIMEOUT_MS: "250" });
  assert.deepEqual([set.REDIS_PING_INTERVAL_MS, set.REDIS_PING_TIMEOUT_MS], [1_000, 250], "set values are read");
});
