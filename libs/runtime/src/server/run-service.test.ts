import { test } from "node:test";
import { echoReasons } from "../testing/echo-server.js";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RuntimeError } from "../errors.js";
import { startService } from "./run-service.js";

// A loopback port held by another listener, so a service asked to bind it fails to start.
async function takenPort(): Promise<{ taken: ReturnType<typeof createServer>; port: number }> {
  const taken = createServer();
  taken.listen(0, "127.0.0.1");
  await once(taken, "listening");
  const address = taken.address();
  return { taken, port: typeof address === "object" && address !== null ? address.port : 0 };
}

test("a metrics address already in use fails the start naming METRICS_ADDRESS and why, and still releases what setup opened", async () => {
  const { taken, port } = await takenPort();
  let released = false;
  try {
    await assert.rejects(
      startService(
        {
          name: "probe",
          reasons: echoReasons,
          defaults: { grpcAddress: "127.0.0.1:0", metricsAddress: `127.0.0.1:${port}` },
          env: {},
          files: [],
          setup: async () => async () => {
            released = true;
          },
        },
        { LOG_LEVEL: "silent" },
      ),
      (e: unknown) =>
        e instanceof RuntimeError &&
        e.code === "METRICS_LISTEN_FAILED" &&
        e.message.includes(`METRICS_ADDRESS=127.0.0.1:${port}`) &&
        e.message.includes("EADDRINUSE"),
    );
    assert.ok(released, "setup's resources were released");
  } finally {
    taken.close();
  }
});

test("a gRPC address already in use fails the start naming GRPC_ADDRESS and why, instead of only the address", async () => {
  const { taken, port } = await takenPort();
  try {
    await assert.rejects(
      startService(
        {
          name: "probe",
          reasons: echoReasons,
          defaults: { grpcAddress: `127.0.0.1:${port}`, metricsAddress: "127.0.0.1:0" },
          env: {},
          files: [],
          setup: async () => async () => undefined,
        },
        { LOG_LEVEL: "silent" },
      ),
      (e: unknown) =>
        e instanceof RuntimeError &&
        e.code === "LISTEN_FAILED" &&
        e.message.includes(`GRPC_ADDRESS=127.0.0.1:${port}`) &&
        e.message.includes("EADDRINUSE"),
    );
  } finally {
    taken.close();
  }
});

test("an unreadable TLS file fails the start naming TLS_CERT_FILE, instead of as a listen failure of GRPC_ADDRESS", async () => {
  const missing = join(tmpdir(), `absent-${process.pid}.pem`);
  await assert.rejects(
    startService(
      {
        name: "probe",
        reasons: echoReasons,
        defaults: { grpcAddress: "127.0.0.1:0", metricsAddress: "127.0.0.1:0" },
        env: {},
        files: [],
        setup: async () => async () => undefined,
      },
      { LOG_LEVEL: "silent", TLS_CERT_FILE: missing, TLS_KEY_FILE: missing },
    ),
    (e: unknown) =>
      e instanceof RuntimeError &&
      e.code === "TLS_FILE_UNREADABLE" &&
      e.message.includes(`TLS_CERT_FILE: cannot read ${missing}`) &&
      !e.message.includes("GRPC_ADDRESS"),
  );
});
