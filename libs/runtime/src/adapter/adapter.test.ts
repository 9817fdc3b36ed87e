import { test } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { errorDetailOf } from "../status/error-details.js";
import { bearerAuth } from "../server/bearer-auth.js";
import { startEchoServer } from "../testing/echo-server.js";
import { eventually, rejection } from "../testing/call-assertions.js";

test("adapter round trips: unary, server stream, client stream, bidi", async () => {
  const { server, client } = await startEchoServer();
  try {
    assert.equal((await client.echo({ message: "hi" })).message, "hi", "unary echo");
    const streamed: number[] = [];
    for await (const m of client.echoStream({ message: "s", count: 3 })) streamed.push(m.index);
    assert.deepEqual(streamed, [0, 1, 2], "server stream yields every echo in order");
    const collected = await client.echoCollect([{ message: "a" }, { message: "b" }, { message: "c" }]);
    assert.deepEqual([collected.message, collected.count], ["a b c", 3], "client stream joins every piece");
    const chat: string[] = [];
    for await (const m of client.echoChat([{ message: "x" }, { message: "y" }])) chat.push(`${m.index}:${m.message}`);
    assert.deepEqual(chat, ["0:x", "1:y"], "bidi answers each message");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("error reason arrives intact in google.rpc.ErrorInfo for unary and client-stream calls", async () => {
  const { server, client } = await startEchoServer();
  try {
    const error = await rejection(client.echo({ message: "x", failReason: "PROJECT_CLOSED" }));
    assert.equal(error.code, status.FAILED_PRECONDITION, "status code from the RpcError");
    const detail = errorDetailOf(error);
    assert.deepEqual(
      [detail?.reason, detail?.domain, detail?.metadata["hint"]],
      ["PROJECT_CLOSED", "crs.testing.v1", "test"],
      "reason, domain and metadata decoded from grpc-status-details-bin",
    );
    const streamError = await rejection(client.echoCollect([{ message: "a" }, { message: "b", failReason: "TOO_MANY" }]));
    assert.equal(errorDetailOf(streamError)?.reason, "TOO_MANY", "client-stream failure reason");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a plain Error thrown by a handler becomes INTERNAL with a generic message", async () => {
  const { server, client } = await startEchoServer();
  try {
    const error = await rejection(client.echo({ failReason: "PLAIN_ERROR" }));
    assert.equal(error.code, status.INTERNAL, "unknown errors map to INTERNAL");
    assert.equal(error.details, "internal error", "no internal detail leaks to the client");
    assert.equal(errorDetailOf(error)?.reason, "INTERNAL", "reason INTERNAL");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a deadline that expires fails the call with DEADLINE_EXCEEDED and aborts the handler", async () => {
  const { server, client, seen } = await startEchoServer();
  try {
    // Connected first: on a busy machine the handshake alone can outlast the deadline, and the call never reaches the server.
    await client.echo({ message: "warm" });
    const error = await rejection(client.echo({ message: "slow", delayMs: 2000 }, { deadline: 100 }));
    assert.equal(error.code, status.DEADLINE_EXCEEDED, "client sees DEADLINE_EXCEEDED");
    await eventually(() => seen.aborts.length > 0);
    assert.equal(seen.aborts.length, 1, "the handler's signal was aborted");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a cancelled server stream stops the handler", async () => {
  const { server, client, seen } = await startEchoServer();
  const controller = new AbortController();
  try {
    const received: number[] = [];
    const error = await rejection(
      (async () => {
        for await (const m of client.echoStream({ message: "tick", count: 0, intervalMs: 5 }, { signal: controller.signal })) {
          received.push(m.index);
          if (received.length === 3) controller.abort();
        }
      })(),
    );
    assert.equal(error.code, status.CANCELLED, "the client sees CANCELLED");
    await eventually(() => seen.aborts.length > 0);
    assert.equal(seen.aborts.length, 1, "the stream handler was aborted");
    assert.equal(server.tracker.size, 0, "no call is left in flight");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("shutdown ends an open server stream with UNAVAILABLE and drains within the bound", async () => {
  const { server, client } = await startEchoServer();
  try {
    const iterator = client.echoStream({ message: "tick", count: 0, intervalMs: 5 })[Symbol.asyncIterator]();
    await iterator.next();
    const started = Date.now();
    const { drained } = await server.shutdown(2000);
    assert.ok(drained, "the stream ended before the drain bound");
    assert.ok(Date.now() - started < 2000, "shutdown returned within the drain bound");
    const error = await rejection(
      (async () => {
        for (;;) if ((await iterator.next()).done) return;
      })(),
    );
    assert.equal(error.code, status.UNAVAILABLE, "the stream ends with UNAVAILABLE");
    assert.equal(errorDetailOf(error)?.reason, "SHUTTING_DOWN", "shutdown reason");
  } finally {
    client.close();
  }
});

test("methods without a handler answer UNIMPLEMENTED", async () => {
  const { server, client } = await startEchoServer({}, { echo: async (r) => ({ message: r.message }) });
  try {
    const error = await rejection(client.echoCollect([{ message: "a" }]));
    assert.equal(error.code, status.UNIMPLEMENTED, "missing handler is UNIMPLEMENTED");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("bearer auth rejects a call without the token with UNAUTHENTICATED", async () => {
  const { server, client } = await startEchoServer({ authorize: bearerAuth("s3cret") });
  try {
    const error = await rejection(client.echo({ message: "x" }));
    assert.equal(error.code, status.UNAUTHENTICATED, "no token");
    const wrong = await rejection(client.echo({ message: "x" }, { headers: { authorization: "Bearer nope" } }));
    assert.equal(wrong.code, status.UNAUTHENTICATED, "wrong token");
    const ok = await client.echo({ message: "x" }, { headers: { authorization: "Bearer s3cret" } });
    assert.equal(ok.message, "x", "the right token passes");
    const lower = await client.echo({ message: "y" }, { headers: { authorization: "bearer s3cret" } });
    assert.equal(lower.message, "y", "the scheme name is case-insensitive");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("metrics count calls by method and status code", async () => {
  const { server, client } = await startEchoServer();
  try {
    await client.echo({ message: "x" });
    await rejection(client.echo({ failReason: "NOPE" }));
    const text = await server.metrics.registry.metrics();
    assert.match(
      text,
      /grpc_server_handled_total\{grpc_service="crs.testing.v1.EchoService",grpc_method="Echo",grpc_type="unary",grpc_code="OK"\} 1/,
      "OK counted",
    );
    assert.match(text, /grpc_server_handled_total\{[^}]*grpc_code="FAILED_PRECONDITION"\} 1/, "failure counted by code");
    assert.match(text, /grpc_server_handling_seconds_bucket\{[^}]*grpc_method="Echo"/, "latency histogram");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a request over the message-size limit is refused with RESOURCE_EXHAUSTED", async () => {
  const { server, client } = await startEchoServer({ maxMessageBytes: 1024 });
  try {
    const error = await rejection(client.echo({ message: "x".repeat(4096) }));
    assert.equal(error.code, status.RESOURCE_EXHAUSTED, "oversized request refused");
    assert.equal((await client.echo({ message: "small" })).message, "small", "small requests still pass");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});
