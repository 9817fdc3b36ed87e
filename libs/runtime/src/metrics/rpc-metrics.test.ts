import { test } from "node:test";
import { echoReasons } from "../testing/echo-server.js";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { pino } from "pino";
import { credentials, status, type ServiceError } from "@grpc/grpc-js";
import { EchoService } from "@crs/contracts/gen/crs/testing/v1/echo_pb";
import { createClient } from "../adapter/client.js";
import { GrpcServer } from "../server/grpc-server.js";

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
