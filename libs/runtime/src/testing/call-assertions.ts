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

/**
 * Polls `condition`, which may be async, every `intervalMs` until it holds or `ms` pass, and says
 * whether it held; conditions, not fixed sleeps, keep tests steady on a loaded machine.
 */
export async function eventually(condition: () => boolean | Promise<boolean>, ms = 20_000, intervalMs = 10): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() >= until) return false;
    await sleep(intervalMs);
  }
}

/** How many calls the server's metrics counted with gRPC code `code` (its name, as Prometheus labels it). */
export async function handledCount(server: { metrics: { registry: { metrics(): Promise<string> } } }, code: string): Promise<number> {
  const text = await server.metrics.registry.metrics();
  let total = 0;
  for (const match of text.matchAll(new RegExp(`^grpc_server_handled_total\\{[^}]*grpc_code="${code}"[^}]*\\} (\\d+)$`, "gm")))
    total += Number(match[1]);
  return total;
}
