import { test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { credentials, status } from "@grpc/grpc-js";
import { EchoService } from "@crs/contracts/gen/crs/testing/v1/echo_pb";
import type { ServiceHandlers } from "./handler-types.js";
import { createClient } from "./client.js";
import { createLogger } from "../logging/logger.js";
import { GrpcServer } from "../server/grpc-server.js";
import { RpcError } from "../errors.js";
import { errorDetailOf } from "../status/error-details.js";
import { echoReasons, startEchoServer } from "../testing/echo-server.js";
import { eventually, rejection } from "../testing/call-assertions.js";

type Echo = ServiceHandlers<typeof EchoService.method>;

const counted = async (server: { metrics: { registry: { metrics(): Promise<string> } } }, code: string): Promise<boolean> =>
  new RegExp(`grpc_server_handled_total\\{[^}]*grpc_code="${code}"\\} 1`).test(await server.metrics.registry.metrics());

test("an error mapper that throws still answers the call with INTERNAL", async () => {
  const server = new GrpcServer({
    name: "echo",
    address: "127.0.0.1:0",
    reasons: echoReasons,
    logger: createLogger("echo", "silent"),
    reflectionFiles: [],
  });
  const mapError = (): RpcError | undefined => {
    throw new TypeError("a broken mapper");
  };
  server.add(EchoService, { echo: async () => Promise.reject(new RangeError("not an RpcError")) }, { mapError });
  const port = await server.listen();
  const client = createClient(EchoService, `127.0.0.1:${port}`, { credentials: credentials.createInsecure() });
  try {
    const error = await rejection(client.echo({ message: "x" }, { deadline: 5000 }));
    assert.equal(error.code, status.INTERNAL, "INTERNAL, not a hung call");
    assert.equal(error.details, "internal error", "the generic message");
    assert.equal(server.tracker.size, 0, "the call left the tracker");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a server stream whose handler rejects with an AbortError at shutdown ends with UNAVAILABLE", async () => {
  const handlers: Echo = {
    async *echoStream(request, ctx) {
      yield { message: request.message, index: 0 };
      await sleep(60_000, undefined, { signal: ctx.signal });
    },
  };
  const { server, client } = await startEchoServer({}, handlers);
  try {
    const iterator = client.echoStream({ message: "tick" })[Symbol.asyncIterator]();
    await iterator.next();
    await server.shutdown(5000);
    const error = await rejection(iterator.next());
    assert.equal(error.code, status.UNAVAILABLE, "the shutdown status, not CANCELLED");
    assert.equal(errorDetailOf(error)?.reason, "SHUTTING_DOWN", "shutdown reason");
  } finally {
    client.close();
  }
});

test("a call whose deadline passes is recorded as DEADLINE_EXCEEDED, not CANCELLED", async () => {
  let reason: unknown;
  const handlers: Echo = {
    echo: async (request, ctx) => {
      if (request.message === "warm") return {};
      try {
        await sleep(60_000, undefined, { signal: ctx.signal });
      } finally {
        reason = ctx.signal.reason;
      }
      return {};
    },
  };
  const { server, client } = await startEchoServer({}, handlers);
  try {
    // Connected first: on a busy machine the handshake alone can outlast the deadline, and the call never reaches the server.
    await client.echo({ message: "warm" });
    const error = await rejection(client.echo({ message: "slow" }, { deadline: 200 }));
    assert.equal(error.code, status.DEADLINE_EXCEEDED, "client sees DEADLINE_EXCEEDED");
    assert.ok(await eventually(() => reason !== undefined), "the handler was aborted");
    assert.equal((reason as RpcError).code, status.DEADLINE_EXCEEDED, "the signal's reason names the deadline");
    assert.ok(await eventually(() => server.tracker.size === 0), "the call left the tracker");
    assert.ok(await counted(server, "DEADLINE_EXCEEDED"), "metrics count DEADLINE_EXCEEDED");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a signal shared by many calls keeps no listener for calls that finished", async () => {
  const { server, client } = await startEchoServer();
  const controller = new AbortController();
  try {
    for (let i = 0; i < 5; i++) await client.echo({ message: "x" }, { signal: controller.signal });
    for await (const _ of client.echoStream({ message: "s", count: 2 }, { signal: controller.signal })) {
      /* drain */
    }
    await client.echoCollect([{ message: "a" }], { signal: controller.signal });
    assert.ok(await eventually(() => getEventListeners(controller.signal, "abort").length === 0), "no abort listener left behind");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a client stream refused by the server stops reading the caller's requests", async () => {
  const handlers: Echo = {
    async echoCollect(requests) {
      for await (const _ of requests) throw new RpcError(status.FAILED_PRECONDITION, "REFUSED", "refused");
      return {};
    },
  };
  const { server, client } = await startEchoServer({}, handlers);
  let finished = false;
  try {
    async function* pieces() {
      try {
        for (;;) yield { message: "x".repeat(64 * 1024) };
      } finally {
        finished = true;
      }
    }
    const error = await rejection(client.echoCollect(pieces()));
    assert.equal(error.code, status.FAILED_PRECONDITION, "the server's refusal");
    assert.ok(await eventually(() => finished), "the request generator was returned");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a caller that stops reading a server stream or a bidi stream early cancels the call", async () => {
  const { server, client } = await startEchoServer();
  try {
    for await (const _ of client.echoStream({ message: "s", count: 0, intervalMs: 5 })) break;
    assert.ok(await eventually(() => server.tracker.size === 0), "the server stream was cancelled");
    for await (const _ of client.echoChat([{ message: "a" }, { message: "b" }, { message: "c" }])) break;
    assert.ok(await eventually(() => server.tracker.size === 0), "the bidi stream was cancelled");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("an RpcError whose metadata is null or holds a symbol still answers the call with its code", async () => {
  const metadataOf = [null, { tag: Symbol("tag") }];
  let next = 0;
  const handlers: Echo = {
    echo: async () => {
      throw new RpcError(status.FAILED_PRECONDITION, "ODD_METADATA", "odd metadata", metadataOf[next++] as never);
    },
  };
  const { server, client } = await startEchoServer({}, handlers);
  try {
    for (const _ of metadataOf) {
      const error = await rejection(client.echo({ message: "x" }, { deadline: 5000 }));
      assert.equal(error.code, status.FAILED_PRECONDITION, "the RpcError's code, not a hung call");
      assert.equal(errorDetailOf(error)?.reason, "ODD_METADATA", "its reason");
    }
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a unary or client-stream handler that returns nothing answers INTERNAL, not an empty success", async () => {
  const handlers: Echo = {
    echo: async () => undefined as never,
    echoCollect: async (requests) => {
      for await (const _ of requests) {
        /* consume */
      }
      return undefined as never;
    },
  };
  const { server, client } = await startEchoServer({}, handlers);
  try {
    assert.equal((await rejection(client.echo({ message: "x" }))).code, status.INTERNAL, "unary");
    assert.equal((await rejection(client.echoCollect([{ message: "a" }]))).code, status.INTERNAL, "client stream");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a call that was answered is not aborted when grpc-js closes its stream afterwards", async () => {
  let seen: { signal: AbortSignal; peer: string; deadline: Date | undefined } | undefined;
  const handlers: Echo = {
    echo: async (request, ctx) => {
      seen = { signal: ctx.signal, peer: ctx.peer, deadline: ctx.deadline };
      return { message: request.message };
    },
  };
  const { server, client } = await startEchoServer({}, handlers);
  try {
    assert.equal((await client.echo({ message: "done" }, { deadline: 60_000 })).message, "done", "answered");
    // grpc-js reports the closed stream of every finished call as "cancelled" on a later tick.
    await sleep(100);
    assert.equal(seen?.signal.aborted, false, "the signal of an answered call stays unaborted");
    assert.match(seen?.peer ?? "", /127\.0\.0\.1:\d+/, "the peer is the client's address");
    assert.ok(seen?.deadline instanceof Date, "the client's deadline is handed to the handler");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("an error echoing a huge request field is answered with a bounded message instead of dropping the connection", async () => {
  const handlers: Echo = {
    echo: async (request, ctx) => {
      if (request.delayMs > 0) await sleep(request.delayMs, undefined, { signal: ctx.signal });
      if (request.failReason === "") return { message: request.message };
      throw new RpcError(status.INVALID_ARGUMENT, "ECHOED", `message: ${request.message} is refused`, {
        field: "message",
        value: request.message,
      });
    },
  };
  const { server, client } = await startEchoServer({}, handlers);
  try {
    for (const huge of ["z".repeat(100_000), "é".repeat(40_000)]) {
      // A call in flight on the same connection must survive the refusal.
      const bystander = client.echo({ message: "still here", delayMs: 200 }, { deadline: 10_000 });
      const error = await rejection(client.echo({ message: huge, failReason: "ECHOED" }, { deadline: 10_000 }));
      assert.equal(error.code, status.INVALID_ARGUMENT, `the handler's code, not UNAVAILABLE or a deadline: ${error.details.slice(0, 80)}`);
      const detail = errorDetailOf(error);
      assert.equal(detail?.reason, "ECHOED", "its reason");
      assert.equal(detail?.metadata["field"], "message", "the field it names");
      assert.ok(error.details.startsWith(`message: ${huge.slice(0, 100)}`), "the message keeps its start");
      assert.ok(Buffer.byteLength(error.details) <= 1024, `message cut to 1024 bytes, not ${Buffer.byteLength(error.details)}`);
      assert.ok(Buffer.byteLength(detail?.metadata["value"] ?? "") <= 512, "metadata values cut to 512 bytes");
      assert.equal((await bystander).message, "still here", "the other call on the connection is answered");
    }
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});
