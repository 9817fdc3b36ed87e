import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { status } from "@grpc/grpc-js";
import type { EchoService } from "@crs/contracts/gen/crs/testing/v1/echo_pb";
import type { ServiceHandlers } from "../adapter/handler-types.js";
import { errorDetailOf } from "../status/error-details.js";
import { startEchoServer } from "../testing/echo-server.js";
import { eventually, handledCount, rejection } from "../testing/call-assertions.js";

type Echo = ServiceHandlers<typeof EchoService.method>;

test("a unary call that outlives the drain gets UNAVAILABLE with the shutdown reason, not CANCELLED", async () => {
  let release = (): void => undefined;
  const handlers: Echo = {
    // Ignores its abort signal, as a handler stuck in I/O would.
    echo: () => new Promise((resolve) => (release = () => resolve({ message: "late" }))),
  };
  const { server, client } = await startEchoServer({}, handlers);
  try {
    const call = rejection(client.echo({ message: "x" }));
    assert.ok(await eventually(() => server.tracker.size === 1), "the call reached the handler");
    const { drained } = await server.shutdown(100);
    assert.equal(drained, false, "the drain ran out");
    const error = await call;
    assert.equal(error.code, status.UNAVAILABLE, "UNAVAILABLE");
    assert.equal(errorDetailOf(error)?.reason, "SHUTTING_DOWN", "with the shutdown reason");
    assert.equal(await handledCount(server, "UNAVAILABLE"), 1, "counted UNAVAILABLE");
    release();
    await sleep(20);
    assert.equal(await handledCount(server, "OK"), 0, "the late answer is neither sent nor counted");
  } finally {
    client.close();
  }
});
