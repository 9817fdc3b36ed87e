import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { credentials, status } from "@grpc/grpc-js";
import { createClient, type TypedClient } from "@crs/runtime";
import { PersistenceService } from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { HealthCheckResponse_ServingStatus as Serving } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

describe("services of the contract this server does not serve yet", () => {
  let s: TestServer;
  let persistence: TypedClient<typeof PersistenceService.method>;
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId: "unserved" });
    const target = `127.0.0.1:${s.service.port}`;
    persistence = createClient(PersistenceService, target, { credentials: credentials.createInsecure() });
  });
  after(async () => {
    persistence.close();
    await s.stop();
  });

  it("answer every unserved method UNIMPLEMENTED with ErrorInfo reason UNIMPLEMENTED, not a bare status clients cannot branch on", async () => {
    const projectId = "unserved";
    const calls: [string, () => Promise<unknown>][] = [
      ["CreateBackup", () => persistence.createBackup({ projectId })],
      ["ListBackups", () => persistence.listBackups({ projectId })],
      ["GetBackup", () => persistence.getBackup({ projectId })],
      ["VerifyBackup", () => persistence.verifyBackup({ projectId })],
      ["RestoreBackup", () => persistence.restoreBackup({ projectId })],
      ["DeleteBackup", () => persistence.deleteBackup({ projectId, backupId: "b" })],
    ];
    // ExportState and ImportState are served (persistence-service.test.ts); every other method is called.
    assert.equal(calls.length, PersistenceService.methods.length - 2, "every unserved method is called");
    for (const [method, call] of calls) {
      const error = await expectError(call(), status.UNIMPLEMENTED, "UNIMPLEMENTED");
      assert.match(error.details, new RegExp(`\\.${method} is not served`), `${method}: the message names the method`);
    }
    assert.equal((await s.state.getGeneration({ projectId })).header?.generation, 0n, "nothing changed");
  });

  it("stay NOT_SERVING in health while any method is unserved, though ExportState and ImportState answer, while the served WatchService reports SERVING", async () => {
    assert.equal((await s.health.check({ service: "crs.state.v1.PersistenceService" })).status, Serving.NOT_SERVING);
    assert.equal((await s.health.check({ service: "crs.state.v1.WatchService" })).status, Serving.SERVING);
    assert.equal((await s.health.check({ service: "crs.state.v1.StateService" })).status, Serving.SERVING);
  });
});
