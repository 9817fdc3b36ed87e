import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServiceError } from "@grpc/grpc-js";

/** The error a call fails with; fails the test when the call succeeds. */
export async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    return error as ServiceError;
  }
  assert.fail("the call was expected to fail");
}

/** Polls `condition` until it holds or `ms` pass; conditions, not fixed sleeps, keep tests steady under load. */
export async function eventually(condition: () => boolean, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!condition() && Date.now() < until) await sleep(10);
  return condition();
}
