import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { connect } from "node:http2";
import { createConnection } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { status } from "@grpc/grpc-js";
import { EchoCollectRequestSchema, type EchoService } from "@crs/contracts/gen/crs/testing/v1/echo_pb";
import type { ServiceHandlers } from "./handler-types.js";
import { errorDetailOf } from "../status/error-details.js";
import { startEchoServer } from "../testing/echo-server.js";
import { eventually, handledCount, rejection } from "../testing/call-assertions.js";

type Echo = ServiceHandlers<typeof EchoService.method>;

// A client-stream handler that records whether it folded the upload as complete, or how it failed.
function collecting(): { handlers: Echo; seen: { completed: number; failures: unknown[] } } {
  const seen = { completed: 0, failures: [] as unknown[] };
  const handlers: Echo = {
    async echoCollect(requests) {
      const pieces: string[] = [];
      try {
        for await (const piece of requests) pieces.push(piece.message);
      } catch (error) {
        seen.failures.push(error);
        throw error;
      }
      seen.completed++;
      return { message: pieces.join(" "), count: pieces.length };
    },
  };
  return { handlers, seen };
}

// One piece, then silence until the call is torn down.
async function* oneThenIdle(signal: AbortSignal) {
  yield { message: "first" };
  await sleep(60_000, undefined, { signal }).catch(() => undefined);
}

test("a client stream whose deadline passes while it is idle fails the handler's read instead of looking complete", async () => {
  const { handlers, seen } = collecting();
  const { server, client } = await startEchoServer({}, handlers);
  const idle = new AbortController();
  try {
    const error = await rejection(client.echoCollect(oneThenIdle(idle.signal), { deadline: 300 }));
    assert.equal(error.code, status.DEADLINE_EXCEEDED, "the client sees its deadline");
    assert.ok(await eventually(() => seen.failures.length === 1 || seen.completed > 0), "the handler finished");
    assert.equal(seen.completed, 0, "the partial upload was not folded as complete");
    assert.equal((seen.failures[0] as { code?: number }).code, status.DEADLINE_EXCEEDED, "the read failed with DEADLINE_EXCEEDED");
    assert.ok(await eventually(() => server.tracker.size === 0), "the call left the tracker");
    assert.equal(await handledCount(server, "OK"), 0, "not counted OK");
    assert.equal(await handledCount(server, "DEADLINE_EXCEEDED"), 1, "counted DEADLINE_EXCEEDED");
  } finally {
    idle.abort();
    client.close();
    await server.shutdown(1000);
  }
});

test("a client stream whose connection drops mid-upload fails the handler's read instead of looking complete", async () => {
  const { handlers, seen } = collecting();
  const { server, port } = await startEchoServer({}, handlers);
  const socket = createConnection({ host: "127.0.0.1", port });
  const session = connect(`http://127.0.0.1:${port}`, { createConnection: () => socket });
  try {
    const stream = session.request({
      ":method": "POST",
      ":path": "/crs.testing.v1.EchoService/EchoCollect",
      "content-type": "application/grpc",
      te: "trailers",
    });
    stream.on("error", () => undefined);
    const piece = toBinary(EchoCollectRequestSchema, create(EchoCollectRequestSchema, { message: "first" }));
    const frame = Buffer.alloc(5 + piece.length);
    frame.writeUInt32BE(piece.length, 1);
    frame.set(piece, 5);
    stream.write(frame);
    assert.ok(await eventually(() => server.tracker.size === 1), "the call reached the handler");
    await sleep(50);
    // The client goes away without finishing its stream, as a crashed process or a lost network does.
    socket.destroy();
    assert.ok(await eventually(() => seen.failures.length === 1 || seen.completed > 0), "the handler finished");
    assert.equal(seen.completed, 0, "the partial upload was not folded as complete");
    assert.equal((seen.failures[0] as { code?: number }).code, status.CANCELLED, "the read failed with CANCELLED");
    assert.ok(await eventually(() => server.tracker.size === 0), "the call left the tracker");
    assert.equal(await handledCount(server, "OK"), 0, "not counted OK");
    assert.equal(await handledCount(server, "CANCELLED"), 1, "counted CANCELLED");
  } finally {
    session.destroy();
    await server.shutdown(1000);
  }
});

test("a request read waiting on an idle client stream ends with the shutdown status once the drain runs out", async () => {
  const { handlers, seen } = collecting();
  const { server, client } = await startEchoServer({}, handlers);
  const idle = new AbortController();
  try {
    const call = rejection(client.echoCollect(oneThenIdle(idle.signal)));
    assert.ok(await eventually(() => server.tracker.size === 1), "the call reached the handler");
    await server.shutdown(200);
    assert.ok(await eventually(() => seen.failures.length === 1), "the pending read was failed, not left hanging");
    const error = await call;
    assert.equal(error.code, status.UNAVAILABLE, "UNAVAILABLE");
    assert.equal(errorDetailOf(error)?.reason, "SHUTTING_DOWN", "with the shutdown reason");
  } finally {
    idle.abort();
    client.close();
  }
});
