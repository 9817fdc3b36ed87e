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
