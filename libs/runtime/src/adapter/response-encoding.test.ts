import { test } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { create, toBinary } from "@bufbuild/protobuf";
import { EchoRequestSchema, EchoResponseSchema, type EchoService } from "@crs/contracts/gen/crs/testing/v1/echo_pb";
import { encodedMessage } from "./encoded-message.js";
import type { ServiceHandlers } from "./handler-types.js";
import { errorDetailOf } from "../status/error-details.js";
import { startEchoServer } from "../testing/echo-server.js";
import { handledCount, rejection } from "../testing/call-assertions.js";

type Echo = ServiceHandlers<typeof EchoService.method>;

test("a response over the message limit fails with RESOURCE_EXHAUSTED and ErrorInfo, and is counted so", async () => {
  const handlers: Echo = { echo: async (request) => ({ message: "x".repeat(request.delayMs) }) };
  const { server, client } = await startEchoServer({ maxMessageBytes: 64 * 1024 }, handlers);
  try {
    const error = await rejection(client.echo({ delayMs: 100 * 1024 }));
    assert.equal(error.code, status.RESOURCE_EXHAUSTED, "RESOURCE_EXHAUSTED");
    const detail = errorDetailOf(error);
    assert.deepEqual([detail?.reason, detail?.metadata["limit"]], ["LIMIT_EXCEEDED", String(64 * 1024)], "reason and limit in ErrorInfo");
    assert.equal(await handledCount(server, "RESOURCE_EXHAUSTED"), 1, "counted RESOURCE_EXHAUSTED");
    assert.equal(await handledCount(server, "OK"), 0, "not counted OK");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a streamed response with a value out of range fails with INTERNAL and ErrorInfo, and is counted so", async () => {
  const handlers: Echo = {
    async *echoStream() {
      yield { message: "fine", index: 0 };
      yield { message: "broken", index: -1 };
    },
  };
  const { server, client } = await startEchoServer({}, handlers);
  try {
    const received: number[] = [];
    const error = await rejection(
      (async () => {
        for await (const message of client.echoStream({ message: "s" })) received.push(message.index);
      })(),
    );
    assert.deepEqual(received, [0], "the valid message arrived");
    assert.equal(error.code, status.INTERNAL, "INTERNAL");
    assert.equal(errorDetailOf(error)?.reason, "INTERNAL", "with ErrorInfo");
    assert.equal(await handledCount(server, "INTERNAL"), 1, "counted INTERNAL");
    assert.equal(await handledCount(server, "OK"), 0, "not counted OK");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("an answer handed over already encoded reaches the client as the message it encodes", async () => {
  const bytes = toBinary(EchoResponseSchema, create(EchoResponseSchema, { message: "stored answer" }));
  const handlers: Echo = { echo: async () => encodedMessage(EchoResponseSchema, bytes) };
  const { server, client } = await startEchoServer({}, handlers);
  try {
    const response = await client.echo({ message: "x" });
    assert.equal(response.message, "stored answer", "the encoded message is sent as it is");
    assert.equal(await handledCount(server, "OK"), 1, "counted OK");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("an encoded answer of another message type fails with INTERNAL instead of sending bytes the client would misread", async () => {
  const bytes = toBinary(EchoRequestSchema, create(EchoRequestSchema, { message: "wrong type", delayMs: 7 }));
  const handlers: Echo = { echo: async () => encodedMessage(EchoRequestSchema, bytes) as never };
  const { server, client } = await startEchoServer({}, handlers);
  try {
    const error = await rejection(client.echo({ message: "x" }));
    assert.equal(error.code, status.INTERNAL, "INTERNAL");
    assert.equal(errorDetailOf(error)?.reason, "INTERNAL", "with ErrorInfo");
    assert.equal(await handledCount(server, "INTERNAL"), 1, "counted INTERNAL");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});
