import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { HealthCheckResponse_ServingStatus as Serving } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import type { CallContext } from "../adapter/handler-types.js";
import { status } from "@grpc/grpc-js";
import { RpcError } from "../errors.js";
import { HealthRegistry, MAX_LISTED_SERVICES, MAX_SERVICE_NAME_LENGTH } from "./health.js";

const contextWith = (signal: AbortSignal): CallContext => ({ signal }) as CallContext;

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

test("watches of unknown names, or of a known name once ended, leave no entry behind", async () => {
  const registry = new HealthRegistry();
  registry.set("svc", "SERVING");
  const handlers = registry.handlers();
  for (let round = 0; round < 3; round++) {
    const controllers: AbortController[] = [];
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < 1000; i++) {
      const controller = new AbortController();
      controllers.push(controller);
      const watch = handlers.watch!(
        { service: i % 2 === 0 ? "svc" : `no.such.Service${round}x${i}${"n".repeat(200)}` } as never,
        contextWith(controller.signal),
      );
      const iterator = watch[Symbol.asyncIterator]();
      const first = await iterator.next();
      assert.ok(first.value?.status === Serving.SERVING || first.value?.status === Serving.SERVICE_UNKNOWN, "an answer first");
      pending.push(iterator.next());
    }
    assert.equal(registry.watchedNames, 1, "only the registered name has watchers");
    for (const controller of controllers) controller.abort();
    await Promise.all(pending);
    assert.equal(registry.watchedNames, 0, `round ${round}: no entry is left once every watch has ended`);
  }
});

test("a health check or watch naming a service longer than the limit is refused with INVALID_ARGUMENT", async () => {
  const handlers = new HealthRegistry().handlers();
  const long = "x".repeat(MAX_SERVICE_NAME_LENGTH + 1);
  await assert.rejects(
    handlers.check!({ service: long } as never, contextWith(new AbortController().signal)),
    (e: unknown) => e instanceof RpcError && e.code === status.INVALID_ARGUMENT && e.metadata["field"] === "service",
  );
  assert.throws(
    () => handlers.watch!({ service: long } as never, contextWith(new AbortController().signal)),
    (e: unknown) => e instanceof RpcError && e.code === status.INVALID_ARGUMENT,
  );
});

test("health List over more services than it answers for is refused with RESOURCE_EXHAUSTED, not a huge answer", async () => {
  const registry = new HealthRegistry();
  for (let i = 0; i < MAX_LISTED_SERVICES; i++) registry.set(`svc${i}`, "SERVING");
  const signal = new AbortController().signal;
  const listed = (await registry.handlers().list!({} as never, contextWith(signal))) as { statuses: object };
  assert.equal(Object.keys(listed.statuses).length, MAX_LISTED_SERVICES, "up to the limit, every service is listed");
  registry.set("one.more", "NOT_SERVING");
  await assert.rejects(
    registry.handlers().list!({} as never, contextWith(signal)),
    (e: unknown) => e instanceof RpcError && e.code === status.RESOURCE_EXHAUSTED && e.metadata["limit"] === String(MAX_LISTED_SERVICES),
  );
});
