import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { ProofUpdateType } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { C_GENERATION, MAX_CHECKPOINTS, clause, serveFixture, soft, type Row } from "./error-contract-fixture.js";
import { GENERIC_REASONS, documentedReasons, isDocumented } from "./proto-reasons.js";
import { SERVED_RPCS } from "./rpc-requests.js";
import { STATE_ROWS, projectNotFound } from "./state-error-rows.js";
import { expectError, removeDataDir, type TestServer } from "./test-support.js";

// The reasons each RPC's own comment lists ("Reasons: ..."), each produced through the real client
// with the code, field and metadata errors.proto documents for it; and the comments checked
// against these rows both ways: a reason produced must be documented, a reason listed must have a
// row here that produces it.

const ROWS: readonly Row[] = [
  ...STATE_ROWS,
  {
    rpc: "StepService.GetLastStep",
    reason: "STEP_NOT_FOUND",
    code: status.NOT_FOUND,
    field: "session_id",
    metadata: { session_id: "quiet" },
    call: (s) => s.steps.getLastStep({ projectId: "c", sessionId: "quiet" }),
  },
  {
    rpc: "ProofService.UpdateProofNumber",
    reason: "HARD_SOFT_BOUNDARY",
    code: status.INVALID_ARGUMENT,
    field: "update.source",
    call: (s) => s.proofs.updateProofNumber({ projectId: "c", update: { nodeId: "n", type: ProofUpdateType.DISPROVEN, source: soft } }),
  },
  {
    rpc: "ClauseService.AddClause",
    reason: "CLAUSE_ID_CONFLICT",
    code: status.ALREADY_EXISTS,
    field: "clause.id",
    call: (s) => s.clauses.addClause({ projectId: "c", clause: clause("c1", "tool:Other") }),
  },
  {
    rpc: "ClauseService.GetClause",
    reason: "CLAUSE_NOT_FOUND",
    code: status.NOT_FOUND,
    field: "clause_id",
    call: (s) => s.clauses.getClause({ projectId: "c", clauseId: "gone" }),
  },
  {
    rpc: "SimilarityService.RecordSimilarity",
    reason: "SIMILARITY_CAPACITY",
    code: status.RESOURCE_EXHAUSTED,
    metadata: { limit: "1" },
    call: (s) => s.similarity.recordSimilarity({ projectId: "full", a: "new", b: "pair", distance: 1 }),
  },
  {
    rpc: "SimilarityService.GetSimilarity",
    reason: "SIMILARITY_NOT_FOUND",
    code: status.NOT_FOUND,
    metadata: { a: "x", b: "z" },
    call: (s) => s.similarity.getSimilarity({ projectId: "c", a: "z", b: "x" }),
  },
  {
    rpc: "QueryService.GetNodeStats",
    reason: "NODE_NOT_FOUND",
    code: status.NOT_FOUND,
    field: "node_id",
    call: (s) => s.queries.getNodeStats({ projectId: "c", nodeId: "nowhere" }),
  },
  {
    rpc: "IndexService.GetConstraint",
    reason: "CONSTRAINT_NOT_FOUND",
    code: status.NOT_FOUND,
    field: "constraint_id",
    call: (s) => s.indexes.getConstraint({ projectId: "c", constraintId: "gone" }),
  },
  {
    rpc: "HistoryService.GetChange",
    reason: "CHANGE_NOT_FOUND",
    code: status.NOT_FOUND,
    field: "generation",
    metadata: { generation: "99" },
    call: (s) => s.history.getChange({ projectId: "c", generation: 99n }),
  },
  {
    rpc: "MaintenanceService.ListProjects",
    reason: "INVALID_PAGE_TOKEN",
    code: status.INVALID_ARGUMENT,
    field: "page_token",
    call: (s) => s.maintenance.listProjects({ pageToken: "not-a-token" }),
  },
  projectNotFound("MaintenanceService.GetProjectStatus"),
  {
    rpc: "MaintenanceService.GetProjectStatus",
    reason: "UNSUPPORTED_FORMAT",
    code: status.FAILED_PRECONDITION,
    metadata: { project_id: "newer" },
    call: (s) => s.maintenance.getProjectStatus({ projectId: "newer" }),
  },
];

describe("the reasons each RPC's comment lists", () => {
  const docs = documentedReasons();
  let s: TestServer;
  before(async () => {
    s = await serveFixture();
  });
  after(async () => {
    await s.stop();
    await removeDataDir(s.dataDir);
  });

  it("produces every row's reason with its documented code, field and metadata, and changes nothing", async () => {
    for (const row of ROWS) {
      const error = await expectError(row.call(s), row.code, row.reason, row.field).catch((e: unknown) => {
        throw new Error(`${row.rpc} ${row.reason}: ${(e as Error).message}`, { cause: e });
      });
      const metadata = errorDetailOf(error)?.metadata ?? {};
      for (const [key, value] of Object.entries(row.metadata ?? {}))
        assert.equal(metadata[key], value, `${row.rpc} ${row.reason}: metadata ${key} (${JSON.stringify(metadata)})`);
    }
    assert.equal((await s.state.getGeneration({ projectId: "c" })).header?.generation, BigInt(C_GENERATION), "no refused call changed c");
    assert.equal((await s.state.listCheckpoints({ projectId: "c" })).checkpoints.length, MAX_CHECKPOINTS, "nor its checkpoints");
  });

  it("documents every reason a row produces, for that RPC or for its whole service", () => {
    const undocumented = ROWS.filter((row) => !isDocumented(docs, row.rpc, row.reason)).map((row) => `${row.rpc}: ${row.reason}`);
    assert.deepEqual(undocumented, [], "produced but not listed");
  });

  it("lists no reason for an RPC that no row produces", () => {
    const unproven: string[] = [];
    for (const rpc of SERVED_RPCS) {
      const [service, method] = rpc.name.split(".") as [string, string];
      for (const reason of docs.get(service)?.rpcs.get(method) ?? []) {
        if (!GENERIC_REASONS.has(reason) && !ROWS.some((row) => row.rpc === rpc.name && row.reason === reason))
          unproven.push(`${rpc.name}: ${reason}`);
      }
    }
    assert.deepEqual(unproven, [], "listed but never produced");
  });
});
