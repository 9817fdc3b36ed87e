import { test } from "node:test";
import assert from "node:assert/strict";
import { credentials, status } from "@grpc/grpc-js";
import { EchoService } from "@crs/contracts/gen/crs/testing/v1/echo_pb";
import { Health, HealthCheckResponse_ServingStatus as Serving } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { createClient } from "../adapter/client.js";
import { createLogger } from "../logging/logger.js";
import { echoReasons } from "../testing/echo-server.js";
import { rejection } from "../testing/call-assertions.js";
import { GrpcServer } from "./grpc-server.js";

const serverWith = (handlers: object, served?: boolean): GrpcServer =>
  new GrpcServer({
    name: "echo",
    address: "127.0.0.1:0",
    reasons: echoReasons,
    logger: createLogger("echo", "silent"),
    reflectionFiles: [],
  }).add(EchoService, handlers, served === undefined ? {} : { served });

test("a service whose methods all answer UNIMPLEMENTED is not reported SERVING, even when its owner says so", async () => {
  for (const [server, expected, label] of [
    [serverWith({}), Serving.NOT_SERVING, "no handlers"],
    [serverWith({ echo: async () => ({ message: "x" }) }, false), Serving.NOT_SERVING, "marked unserved"],
    [serverWith({ echo: async () => ({ message: "x" }) }), Serving.SERVING, "one handler"],
  ] as const) {
    const port = await server.listen();
    server.setHealth(EchoService.typeName, "SERVING");
    const health = createClient(Health, `127.0.0.1:${port}`, { credentials: credentials.createInsecure() });
    try {
      assert.equal((await health.check({ service: EchoService.typeName })).status, expected, label);
      assert.equal((await health.check({ service: "" })).status, Serving.SERVING, `${label}: the server itself serves`);
      assert.equal(
        (await rejection(health.check({ service: "no.such.Service" }))).code,
        status.NOT_FOUND,
        `${label}: unknown names are NOT_FOUND`,
      );
    } finally {
      health.close();
      await server.shutdown(1000);
    }
  }
});

test("health List answers every registered service and the server itself, instead of UNIMPLEMENTED", async () => {
  const server = serverWith({ echo: async () => ({ message: "x" }) });
  const health = createClient(Health, `127.0.0.1:${await server.listen()}`, { credentials: credentials.createInsecure() });
  try {
    const listed = await health.list({});
    assert.deepEqual(
      Object.fromEntries(Object.entries(listed.statuses).map(([name, s]) => [name, s.status])),
      { "": Serving.SERVING, [EchoService.typeName]: Serving.SERVING },
      "the server and the echo service, each with its status",
    );
    server.setHealth(EchoService.typeName, "NOT_SERVING");
    assert.equal((await health.list({})).statuses[EchoService.typeName]?.status, Serving.NOT_SERVING, "a change is listed");
  } finally {
    health.close();
    await server.shutdown(1000);
  }
});
