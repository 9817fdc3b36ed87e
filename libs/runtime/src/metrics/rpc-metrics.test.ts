import { test } from "node:test";
import { echoReasons } from "../testing/echo-server.js";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { pino } from "pino";
import { credentials, status, type ServiceError } from "@grpc/grpc-js";
import { EchoService } from "@crs/contracts/gen/crs/testing/v1/echo_pb";
import { createClient } from "../adapter/client.js";
import { GrpcServer } from "../server/grpc-server.js";
import { errorDetailOf } from "../status/error-details.js";
import { rejection } from "../testing/call-assertions.js";

test("a handler that throws undefined is logged as an internal error, not only counted", async () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: "info" }, sink);
  const server = new GrpcServer({ name: "echo", address: "127.0.0.1:0", reasons: echoReasons, logger, reflectionFiles: [] });
  server.add(EchoService, { echo: async () => Promise.reject(undefined) });
  const port = await server.listen();
  const client = createClient(EchoService, `127.0.0.1:${port}`, { credentials: credentials.createInsecure() });
  try {
    const error = await client.echo({ message: "x" }).then(
      () => assert.fail("the call was expected to fail"),
      (e: unknown) => e as ServiceError,
    );
    assert.equal(error.code, status.INTERNAL, "INTERNAL");
    assert.ok(
      lines.some((l) => l["level"] === 50 && l["code"] === "INTERNAL"),
      "an error line for the internal failure",
    );
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});

test("a method of the contract without a handler is counted in the request metrics and answers UNIMPLEMENTED with ErrorInfo", async () => {
  const server = new GrpcServer({
    name: "echo",
    address: "127.0.0.1:0",
    reasons: echoReasons,
    logger: pino({ level: "silent" }),
    reflectionFiles: [],
  });
  // Only Echo has a handler: EchoStream, EchoCollect and EchoChat are part of the contract but not served.
  server.add(EchoService, { echo: async (request) => ({ message: request.message }) });
  const port = await server.listen();
  const client = createClient(EchoService, `127.0.0.1:${port}`, { credentials: credentials.createInsecure() });
  try {
    const error = await rejection(
      (async () => {
        for await (const _ of client.echoStream({ message: "x", count: 1 })) void _;
      })(),
    );
    assert.equal(error.code, status.UNIMPLEMENTED, "UNIMPLEMENTED");
    const detail = errorDetailOf(error);
    assert.equal(detail?.reason, "UNIMPLEMENTED", "with the service's UNIMPLEMENTED reason, not a bare status");
    assert.equal(detail?.domain, "crs.testing.v1", "in the service's domain");
    assert.match(error.details, /crs\.testing\.v1\.EchoService\.EchoStream/, "naming the method");
    const text = await server.metrics.registry.metrics();
    assert.match(
      text,
      /^grpc_server_handled_total\{grpc_service="crs\.testing\.v1\.EchoService",grpc_method="EchoStream",grpc_type="server_streaming",grpc_code="UNIMPLEMENTED"\} 1$/m,
      "the call is counted under its method and code",
    );
    assert.match(
      text,
      /^grpc_server_handling_seconds_count\{[^}]*grpc_method="EchoStream"[^}]*grpc_code="UNIMPLEMENTED"\} 1$/m,
      "and timed",
    );
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});
