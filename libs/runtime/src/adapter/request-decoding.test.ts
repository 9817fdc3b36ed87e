import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, credentials, status, type ServiceError } from "@grpc/grpc-js";
import { errorDetailOf } from "../status/error-details.js";
import { startEchoServer } from "../testing/echo-server.js";
import { handledCount } from "../testing/call-assertions.js";

const raw = (bytes: Buffer): Buffer => bytes;

// Request bytes no valid EchoRequest or EchoCollectRequest encodes to.
const MALFORMED: Record<string, Buffer> = {
  "wrong wire type": Buffer.from([0x0d, 0x01, 0x02, 0x03, 0x04]),
  "truncated message": Buffer.from([0x0a, 0x05, 0x61]),
  "invalid UTF-8 in a string": Buffer.from([0x0a, 0x02, 0xc3, 0x28]),
};

const failed = (start: (done: (error: ServiceError | null) => void) => void): Promise<ServiceError> =>
  new Promise((resolve, reject) =>
    start((error) => (error ? resolve(error) : reject(new assert.AssertionError({ message: "the call succeeded" })))),
  );

test("a malformed unary or client-stream request is INVALID_ARGUMENT with ErrorInfo, counted, not INTERNAL", async () => {
  const { server, port } = await startEchoServer();
  const client = new Client(`127.0.0.1:${port}`, credentials.createInsecure());
  try {
    for (const [name, bytes] of Object.entries(MALFORMED)) {
      const unary = await failed((done) => client.makeUnaryRequest("/crs.testing.v1.EchoService/Echo", raw, raw, bytes, (e) => done(e)));
      assert.equal(unary.code, status.INVALID_ARGUMENT, `unary, ${name}: ${unary.details}`);
      assert.equal(errorDetailOf(unary)?.reason, "INVALID_ARGUMENT", `unary, ${name}: ErrorInfo reason`);
      const streamed = await failed((done) => {
        const call = client.makeClientStreamRequest("/crs.testing.v1.EchoService/EchoCollect", raw, raw, (e) => done(e));
        call.write(Buffer.from([0x0a, 0x01, 0x61]));
        call.write(bytes);
        call.end();
      });
      assert.equal(streamed.code, status.INVALID_ARGUMENT, `client stream, ${name}: ${streamed.details}`);
      assert.equal(errorDetailOf(streamed)?.reason, "INVALID_ARGUMENT", `client stream, ${name}: ErrorInfo reason`);
    }
    assert.equal(
      await handledCount(server, "INVALID_ARGUMENT"),
      2 * Object.keys(MALFORMED).length,
      "every failure counted INVALID_ARGUMENT",
    );
    assert.equal(await handledCount(server, "INTERNAL"), 0, "none counted INTERNAL");
  } finally {
    client.close();
    await server.shutdown(1000);
  }
});
