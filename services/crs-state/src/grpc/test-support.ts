/** Test support: crs-state served in-process on a free port, with typed clients of every service. */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentials, type ServiceError } from "@grpc/grpc-js";
import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { createClient, errorDetailOf, startService, type RunningService, type TypedClient } from "@crs/runtime";
import { ClauseService } from "@crs/contracts/gen/crs/state/v1/clause_pb";
import { CycleService } from "@crs/contracts/gen/crs/state/v1/cycle_pb";
import { HistoryService } from "@crs/contracts/gen/crs/state/v1/history_pb";
import { IndexService } from "@crs/contracts/gen/crs/state/v1/index_pb";
import { MaintenanceService } from "@crs/contracts/gen/crs/state/v1/maintenance_pb";
import { ProofService } from "@crs/contracts/gen/crs/state/v1/proof_pb";
import { QueryService } from "@crs/contracts/gen/crs/state/v1/query_pb";
import { SimilarityService } from "@crs/contracts/gen/crs/state/v1/similarity_pb";
import { StateService } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { StepService } from "@crs/contracts/gen/crs/state/v1/step_pb";
import { Health } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { crsState } from "../service.js";

/** A running crs-state and its clients. */
export interface TestServer {
  readonly service: RunningService;
  readonly dataDir: string;
  readonly state: TypedClient<typeof StateService.method>;
  readonly steps: TypedClient<typeof StepService.method>;
  readonly proofs: TypedClient<typeof ProofService.method>;
  readonly clauses: TypedClient<typeof ClauseService.method>;
  readonly similarity: TypedClient<typeof SimilarityService.method>;
  readonly queries: TypedClient<typeof QueryService.method>;
  readonly indexes: TypedClient<typeof IndexService.method>;
  readonly history: TypedClient<typeof HistoryService.method>;
  readonly cycles: TypedClient<typeof CycleService.method>;
  readonly maintenance: TypedClient<typeof MaintenanceService.method>;
  readonly health: TypedClient<typeof Health.method>;
  /** Closes the clients and stops the server (the data directory is kept). */
  stop(): Promise<void>;
}

/** Starts crs-state on a free port; `durable` keeps projects in classic-level under `dataDir`; `env` adds settings. */
export async function startTestServer(
  opts: { dataDir?: string; durable?: boolean; env?: Readonly<Record<string, string>> } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? (opts.durable === true ? await mkdtemp(join(tmpdir(), "crs-state-grpc-")) : "");
  const service = await startService(crsState, {
    GRPC_ADDRESS: "127.0.0.1:0",
    METRICS_ADDRESS: "127.0.0.1:0",
    LOG_LEVEL: "silent",
    CRS_STATE_DATA_DIR: dataDir,
    ...opts.env,
  });
  const target = `127.0.0.1:${service.port}`;
  const make = <S extends GenServiceMethods>(svc: GenService<S>) =>
    createClient(svc, target, { credentials: credentials.createInsecure() });
  const clients = {
    state: make(StateService),
    steps: make(StepService),
    proofs: make(ProofService),
    clauses: make(ClauseService),
    similarity: make(SimilarityService),
    queries: make(QueryService),
    indexes: make(IndexService),
    history: make(HistoryService),
    cycles: make(CycleService),
    maintenance: make(MaintenanceService),
    health: make(Health),
  };
  return {
    service,
    dataDir,
    ...clients,
    async stop() {
      for (const c of Object.values(clients)) c.close();
      await service.stop();
    },
  };
}

/** Removes a data directory made by {@link startTestServer}. */
export async function removeDataDir(dir: string): Promise<void> {
  if (dir !== "") await rm(dir, { recursive: true, force: true });
}

/** Asserts that `call` fails with `code`, ErrorInfo `reason` and, when given, metadata `field`. */
export async function expectError(call: Promise<unknown>, code: number, reason: string, field?: string): Promise<ServiceError> {
  let error: ServiceError | undefined;
  try {
    await call;
  } catch (e) {
    error = e as ServiceError;
  }
  assert.ok(error !== undefined, `expected ${reason}, but the call succeeded`);
  const detail = errorDetailOf(error);
  assert.equal(error.code, code, `code of ${reason}: ${error.details}`);
  assert.equal(detail?.reason, reason, `reason: ${error.details}`);
  assert.equal(detail?.domain, "crs.state.v1", "domain");
  assert.doesNotMatch(error.details, /crs-state: crs-state:/, "the message names the service once");
  if (field !== undefined) assert.equal(detail?.metadata["field"], field, `field of ${reason}: ${error.details}`);
  return error;
}
