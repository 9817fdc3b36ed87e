import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import type { ServiceError } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { AddClauseRequestSchema, ListClausesRequestSchema } from "@crs/contracts/gen/crs/state/v1/clause_pb";
import { EntryIndex } from "@crs/contracts/gen/crs/state/v1/common_pb";
import { CheckCycleRequestSchema } from "@crs/contracts/gen/crs/state/v1/cycle_pb";
import { UpdateProofNumberRequestSchema } from "@crs/contracts/gen/crs/state/v1/proof_pb";
import { RecordSimilarityRequestSchema } from "@crs/contracts/gen/crs/state/v1/similarity_pb";
import {
  ApplyRequestSchema,
  CreateProjectRequestSchema,
  DeleteProjectRequestSchema,
  ForkProjectRequestSchema,
  GetSnapshotRequestSchema,
  UpdateProjectConfigRequestSchema,
} from "@crs/contracts/gen/crs/state/v1/state_pb";
import { RecordStepRequestSchema } from "@crs/contracts/gen/crs/state/v1/step_pb";
import { ProofStatus, ProofUpdateType, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { startTestServer, type TestServer } from "./test-support.js";

/** True when `path` (`a.b[2].c`, map keys as `m["k"]`) names a field of `schema`, at any depth. */
function pathExists(schema: DescMessage, path: string): boolean {
  const parts = path.match(/\["(?:[^"\\]|\\.)*"\]|\[\d+\]|[^.[\]]+/g) ?? [];
  let message: DescMessage | undefined = schema;
  let field: DescField | undefined;
  for (const part of parts) {
    if (part.startsWith("[")) {
      const kind = part.startsWith('["') ? "map" : "list";
      if (field?.fieldKind !== kind) return false;
      // An element: a message to walk into, or a scalar that ends the path.
      message =
        field.fieldKind === "map"
          ? field.mapKind === "message"
            ? field.message
            : undefined
          : field.listKind === "message"
            ? field.message
            : undefined;
      field = undefined;
      continue;
    }
    if (field?.fieldKind === "message") message = field.message;
    else if (field !== undefined) return false;
    if (message === undefined) return false;
    field = message.fields.find((f) => f.name === part);
    if (field === undefined) return false;
  }
  return parts.length > 0;
}

async function fieldOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (e) {
    return errorDetailOf(e as ServiceError)?.metadata["field"] ?? "";
  }
  assert.fail("expected the call to fail");
}

const soft = SignalSource.SOFT;
const proofEntry = (nodeId: string, status = ProofStatus.EXPANDED) => ({
  nodeId,
  value: { proof: 1n, disproof: 1n, status, source: soft },
});
const apply = (kind: object, options = {}) => ({ projectId: "f", delta: { source: soft, kind: kind as never }, options });

// An analytics run applied with a hard source, as analytics deltas need.
const applyRun = (record: object) => ({
  projectId: "f",
  delta: { source: SignalSource.HARD, kind: { case: "analytics" as const, value: { record } } },
});

describe("error fields name proto paths", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId: "f" });
    await s.state.apply(apply({ case: "proof", value: { entries: [proofEntry("taken")] } }, { requestId: "used" }));
    // A project that keeps two readable generations, four generations in.
    await s.state.createProject({ projectId: "short", config: { snapshotRetentionGenerations: 2 } });
    for (const id of ["a", "b", "c", "d"])
      await s.state.apply({ ...apply({ case: "proof", value: { entries: [proofEntry(id)] } }), projectId: "short" });
  });
  after(async () => {
    await s.stop();
  });

  it("for every invalid case, the field is the documented path and exists in the request's proto", async () => {
    const cases: [DescMessage, string, () => Promise<unknown>][] = [
      [
        ApplyRequestSchema,
        "delta.proof.entries[0].value.status",
        () => s.state.apply(apply({ case: "proof", value: { entries: [proofEntry("n", ProofStatus.PROVEN)] } })),
      ],
      [
        ApplyRequestSchema,
        "delta.proof.entries[1].node_id",
        () => s.state.apply(apply({ case: "proof", value: { entries: [proofEntry("n"), proofEntry("n")] } })),
      ],
      [
        ApplyRequestSchema,
        "delta.composite.deltas[1].similarity.updates[0].distance",
        () =>
          s.state.apply(
            apply({
              case: "composite",
              value: {
                deltas: [
                  { source: soft, kind: { case: "proof", value: { entries: [proofEntry("m")] } } },
                  { source: soft, kind: { case: "similarity", value: { updates: [{ a: "x", b: "y", distance: -1 }] } } },
                ],
              },
            }),
          ),
      ],
      [
        ApplyRequestSchema,
        "delta.similarity.updates[1].b",
        () =>
          s.state.apply(
            apply({
              case: "similarity",
              value: {
                updates: [
                  { a: "x", b: "y", distance: 1 },
                  { a: "y", b: "x", distance: 2 },
                ],
              },
            }),
          ),
      ],
      [
        ApplyRequestSchema,
        "delta.analytics.record.query_type",
        () =>
          // The type would name marker nodes no read could ask for by id.
          s.state.apply(applyRun({ queryType: "a b/c", queryTimeUnixMs: 1n })),
      ],
      [
        ApplyRequestSchema,
        "delta.analytics.record.cycles",
        () =>
          s.state.apply(
            applyRun({
              queryType: "path",
              queryTimeUnixMs: 1n,
              path: Array.from({ length: 600 }, (_, i) => `p${i}`),
              cycles: [{ values: Array.from({ length: 401 }, (_, i) => `c${i}`) }],
            }),
          ),
      ],
      [ApplyRequestSchema, "delta.constraint.remove[0]", () => s.state.apply(apply({ case: "constraint", value: { remove: ["absent"] } }))],
      [
        ApplyRequestSchema,
        "delta.dependency.add_edges[0]",
        () => s.state.apply(apply({ case: "dependency", value: { addEdges: [{ fromId: "a", toId: "a" }] } })),
      ],
      [
        ApplyRequestSchema,
        "delta.history.entries[1].id",
        () =>
          s.state.apply(
            apply({ case: "history", value: { entries: [1, 2].map(() => ({ id: "h", action: "a", result: "r", source: soft })) } }),
          ),
      ],
      [
        ApplyRequestSchema,
        "delta.history.entries[0].result",
        () =>
          s.state.apply(
            apply({ case: "history", value: { entries: [{ id: "h", action: "a", result: "r".repeat(65_537), source: soft }] } }),
          ),
      ],
      [
        ApplyRequestSchema,
        'delta.history.entries[0].metadata["k.v"]',
        () =>
          s.state.apply(
            apply({ case: "history", value: { entries: [{ id: "h", action: "a", source: soft, metadata: { "k.v": "v".repeat(4097) } }] } }),
          ),
      ],
      [
        ApplyRequestSchema,
        `metadata[${JSON.stringify("k".repeat(257))}]`,
        () => s.state.apply({ ...apply({ case: "proof", value: { entries: [proofEntry("n")] } }), metadata: { ["k".repeat(257)]: "v" } }),
      ],
      [
        ApplyRequestSchema,
        'delta.analytics.record.params["limit"]',
        () => s.state.apply(applyRun({ queryType: "hotspots", queryTimeUnixMs: 1n, params: { limit: "9".repeat(4097) } })),
      ],
      [
        RecordStepRequestSchema,
        'step.metadata["model"]',
        () =>
          s.steps.recordStep({
            projectId: "f",
            step: {
              sessionId: "s",
              actor: "main_agent",
              decision: "execute_tool",
              outcome: "success",
              metadata: { model: "m".repeat(4097) },
            },
          }),
      ],
      [
        ApplyRequestSchema,
        "delta.streaming.increments[0].increment",
        () => s.state.apply(apply({ case: "streaming", value: { increments: [{ item: "i", increment: 0n }] } })),
      ],
      [
        ApplyRequestSchema,
        "options.expected_generation",
        () => s.state.apply(apply({ case: "proof", value: { entries: [proofEntry("n")] } }, { expectedGeneration: 9n })),
      ],
      [
        ApplyRequestSchema,
        "options.expected_project_uid",
        () => s.state.apply(apply({ case: "proof", value: { entries: [proofEntry("n")] } }, { expectedProjectUid: "0ff" })),
      ],
      [
        ApplyRequestSchema,
        "options.request_id",
        () => s.state.apply(apply({ case: "proof", value: { entries: [proofEntry("other")] } }, { requestId: "used" })),
      ],
      [
        ApplyRequestSchema,
        "options.expected_entries[0].key",
        () =>
          s.state.apply(
            apply(
              { case: "proof", value: { entries: [proofEntry("n")] } },
              { expectedEntries: [{ index: EntryIndex.PROOF, key: "taken", modGeneration: 7n }] },
            ),
          ),
      ],
      [
        RecordStepRequestSchema,
        "step.actor",
        () =>
          s.steps.recordStep({ projectId: "f", step: { sessionId: "s", actor: "nobody", decision: "execute_tool", outcome: "success" } }),
      ],
      [
        AddClauseRequestSchema,
        "clause.source",
        () => s.clauses.addClause({ projectId: "f", clause: { id: "c", literals: [{ variable: "tool:x", negated: true }], source: soft } }),
      ],
      [
        UpdateProofNumberRequestSchema,
        "update.source",
        () =>
          s.proofs.updateProofNumber({ projectId: "f", update: { nodeId: "n", type: ProofUpdateType.DISPROVEN, source: soft, delta: 1n } }),
      ],
      [RecordSimilarityRequestSchema, "distance", () => s.similarity.recordSimilarity({ projectId: "f", a: "x", b: "y", distance: -2 })],
      [CheckCycleRequestSchema, "session_id", () => s.cycles.checkCycle({ projectId: "f", stateKey: "k" })],
      [
        UpdateProjectConfigRequestSchema,
        "update_mask.paths",
        () => s.state.updateProjectConfig({ projectId: "f", updateMask: { paths: ["nope"] } }),
      ],
      [
        UpdateProjectConfigRequestSchema,
        'config.circuit_breaker_thresholds["Grep"]',
        () =>
          s.state.updateProjectConfig({
            projectId: "f",
            config: { circuitBreakerThresholds: { Grep: 0 } },
            updateMask: { paths: ["circuit_breaker_thresholds"] },
          }),
      ],
      [
        CreateProjectRequestSchema,
        "config.cycle_detector_max_history",
        () => s.state.createProject({ projectId: "g", config: { cycleDetectorMaxHistory: 1e9 } }),
      ],
      [DeleteProjectRequestSchema, "expected_project_uid", () => s.state.deleteProject({ projectId: "f", expectedProjectUid: "0ff" })],
      [GetSnapshotRequestSchema, "at_generation", () => s.state.getSnapshot({ projectId: "short", atGeneration: 1n })],
      [GetSnapshotRequestSchema, "at_generation", () => s.state.getSnapshot({ projectId: "short", atGeneration: 9n })],
      [
        ForkProjectRequestSchema,
        "at_generation",
        () => s.state.forkProject({ projectId: "short", targetProjectId: "short-fork", origin: { case: "atGeneration", value: 1n } }),
      ],
      [ListClausesRequestSchema, "page_token", () => s.clauses.listClauses({ projectId: "f", pageToken: "not-a-token" })],
    ];
    const wrong: string[] = [];
    for (const [schema, expected, call] of cases) {
      const field = await fieldOf(call());
      if (field !== expected || !pathExists(schema, field)) wrong.push(`${schema.name}: got "${field}", expected "${expected}"`);
    }
    assert.deepEqual(wrong, [], "every field is a proto path of its request");
  });

  it("the path checker itself refuses engine names and accepts map keys", () => {
    assert.equal(pathExists(ApplyRequestSchema, "delta.proof.entries[0].nodeId"), false, "camelCase is not a proto path");
    assert.equal(pathExists(ApplyRequestSchema, "delta.proof.updates[0].node_id"), false, "engine list names are not proto paths");
    assert.equal(pathExists(ApplyRequestSchema, 'metadata["k"]'), true, "map keys");
    assert.equal(pathExists(ApplyRequestSchema, 'delta.history.entries[0].metadata["k"]'), true, "nested map keys");
  });
});
