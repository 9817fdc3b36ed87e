import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { credentials, status } from "@grpc/grpc-js";
import { createClient, type TypedClient } from "@crs/runtime";
import { ClauseService } from "@crs/contracts/gen/crs/state/v1/clause_pb";
import { CycleService } from "@crs/contracts/gen/crs/state/v1/cycle_pb";
import { HistoryService } from "@crs/contracts/gen/crs/state/v1/history_pb";
import { IndexService } from "@crs/contracts/gen/crs/state/v1/index_pb";
import { MaintenanceService } from "@crs/contracts/gen/crs/state/v1/maintenance_pb";
import { PersistenceService } from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { ProofService } from "@crs/contracts/gen/crs/state/v1/proof_pb";
import { QueryService } from "@crs/contracts/gen/crs/state/v1/query_pb";
import { SimilarityService } from "@crs/contracts/gen/crs/state/v1/similarity_pb";
import { StateService } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { StepService } from "@crs/contracts/gen/crs/state/v1/step_pb";
import { WatchService } from "@crs/contracts/gen/crs/state/v1/watch_pb";
import { HealthCheckResponse_ServingStatus as Serving } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

// Every service of the crs.state.v1 contract. Only rollout-analytics' ScanService is still
// unserved (rollout-analytics/src/grpc/unserved-scan-service.test.ts pins its answers).
const CONTRACT = [
  StateService,
  StepService,
  ProofService,
  ClauseService,
  SimilarityService,
  QueryService,
  IndexService,
  HistoryService,
  CycleService,
  MaintenanceService,
  WatchService,
  PersistenceService,
];

describe("crs-state serves its whole contract", () => {
  let s: TestServer;
  let persistence: TypedClient<typeof PersistenceService.method>;
  before(async () => {
    s = await startTestServer();
    persistence = createClient(PersistenceService, `127.0.0.1:${s.service.port}`, { credentials: credentials.createInsecure() });
  });
  after(async () => {
    persistence.close();
    await s.stop();
  });

  it("reports every crs.state.v1 service SERVING in health, none held NOT_SERVING by a method left unserved", async () => {
    for (const service of CONTRACT) {
      assert.equal((await s.health.check({ service: service.typeName })).status, Serving.SERVING, service.typeName);
    }
  });

  it("answers the backup methods, once unserved, by checking the request instead of UNIMPLEMENTED", async () => {
    const calls: [string, () => Promise<unknown>][] = [
      ["CreateBackup", () => persistence.createBackup({})],
      ["ListBackups", () => persistence.listBackups({})],
      ["GetBackup", () => persistence.getBackup({})],
      ["VerifyBackup", () => persistence.verifyBackup({})],
      ["RestoreBackup", () => persistence.restoreBackup({})],
      ["DeleteBackup", () => persistence.deleteBackup({})],
    ];
    // ExportState and ImportState are pinned in persistence-service.test.ts.
    assert.equal(calls.length, PersistenceService.methods.length - 2, "every backup method is called");
    for (const [method, call] of calls) {
      const error = await expectError(call(), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "project_id");
      assert.doesNotMatch(error.details, /is not served/, method);
    }
  });
});
