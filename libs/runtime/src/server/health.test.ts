import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { HealthCheckResponse_ServingStatus as Serving } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import type { CallContext } from "../adapter/handler-types.js";
import { HealthRegistry } from "./health.js";

const contextWith = (signal: AbortSignal): CallContext => ({ signal } as CallContext);

test("a watcher sees a change made while its previous answer was still being written", async () => {
  const registry = new HealthRegistry();
  registry.set("svc", "SERVING");
  const controller = new AbortController();
  const timeout = new AbortController();
  const watch = registry.handlers().watch!({ service: "svc" } as never, contextWith(controller.signal))[Symbol.asyncIterator]();
  try {
    assert.equal((await watch.next()).value?.status, Serving.SERVING, "the current status first");
    // The stream is still writing the first answer when the status changes.
    registry.set("svc", "NOT_SERVING");
    const next = await Promise.race([watch.next(), sleep(5000, "missed" as const, { signal: timeout.signal })]);
    assert.notEqual(next, "missed", "the change was not lost");
    assert.equal(next !== "missed" ? next.value?.status : undefined, Serving.NOT_SERVING, "the new status");
  } finally {
    timeout.abort();
    controller.abort();
    await watch.return?.(undefined);
  }
});
