/** Test support: the StateService failures its RPC comments list, each with the call that produces it. */
import { status } from "@grpc/grpc-js";
import { ProofStatus } from "@crs/contracts/gen/crs/state/v1/types_pb";
import {
  C_GENERATION,
  MAX_CHECKPOINTS,
  MAX_MESSAGE_BYTES,
  OTHER_UID,
  constraint,
  delta,
  hard,
  similarity,
  soft,
  type Row,
} from "./error-contract-fixture.js";
import { SERVED_RPCS, callRpc, validRequest, type ServedRpc } from "./rpc-requests.js";
import type { TestServer } from "./test-support.js";

/** StateService rows (checkpoint and fork methods included). */
export const STATE_ROWS: readonly Row[] = [
  ...[
    "Apply",
    "GetGeneration",
    "GetSnapshot",
    "CreateCheckpoint",
    "ListCheckpoints",
    "GetCheckpoint",
    "DeleteCheckpoint",
    "RestoreCheckpoint",
    "ForkProject",
    "DeleteProject",
    "GetProjectConfig",
    "UpdateProjectConfig",
  ].map((method) => projectNotFound(`StateService.${method}`)),
  ...["CreateCheckpoint", "DeleteCheckpoint", "ForkProject", "DeleteProject"].map((method) => uidMismatch(`StateService.${method}`)),
  {
    rpc: "StateService.CreateProject",
    reason: "PROJECT_ALREADY_EXISTS",
    code: status.ALREADY_EXISTS,
    field: "project_id",
    metadata: { project_id: "c" },
    call: (s) => s.state.createProject({ projectId: "c" }),
  },
  {
    rpc: "StateService.Apply",
    reason: "DELTA_REQUIRED",
    code: status.INVALID_ARGUMENT,
    field: "delta",
    call: (s) => s.state.apply({ projectId: "c" }),
  },
  {
    rpc: "StateService.Apply",
    reason: "DELTA_VALIDATION",
    code: status.INVALID_ARGUMENT,
    field: "delta.similarity.updates[0].distance",
    call: (s) => s.state.apply({ projectId: "c", delta: similarity("x", "z", -1) }),
  },
  {
    rpc: "StateService.Apply",
    reason: "HARD_SOFT_BOUNDARY",
    code: status.INVALID_ARGUMENT,
    field: "delta.proof.entries[0].value.status",
    call: (s) =>
      s.state.apply({
        projectId: "c",
        delta: delta(soft, {
          case: "proof",
          value: { entries: [{ nodeId: "n", value: { proof: 0n, disproof: 1n, status: ProofStatus.PROVEN, source: soft } }] },
        }),
      }),
  },
  {
    rpc: "StateService.Apply",
    reason: "INDEX_NOT_FOUND",
    code: status.NOT_FOUND,
    field: "delta.constraint.remove[0]",
    metadata: { index: "constraint", id: "gone" },
    call: (s) => s.state.apply({ projectId: "c", delta: delta(hard, { case: "constraint", value: { remove: ["gone"] } }) }),
  },
  {
    rpc: "StateService.Apply",
    reason: "ALREADY_EXISTS",
    code: status.ALREADY_EXISTS,
    field: "delta.constraint.add[0].id",
    call: (s) => s.state.apply({ projectId: "c", delta: constraint("k1") }),
  },
  {
    rpc: "StateService.Apply",
    reason: "DEPENDENCY_CYCLE",
    code: status.FAILED_PRECONDITION,
    field: "delta.dependency.add_edges[0]",
    call: (s) =>
      s.state.apply({ projectId: "c", delta: delta(hard, { case: "dependency", value: { addEdges: [{ fromId: "b", toId: "a" }] } }) }),
  },
  {
    rpc: "StateService.Apply",
    reason: "SIMILARITY_CAPACITY",
    code: status.RESOURCE_EXHAUSTED,
    metadata: { limit: "1" },
    call: (s) => s.state.apply({ projectId: "full", delta: similarity("new", "pair", 1) }),
  },
  {
    rpc: "StateService.Apply",
    reason: "SNAPSHOT_STALE",
    code: status.ABORTED,
    field: "snapshot_generation",
    call: (s) => s.state.apply({ projectId: "c", delta: similarity("p", "r", 1), snapshotGeneration: 1n }),
  },
  {
    rpc: "StateService.Apply",
    reason: "DELTA_CONFLICT",
    code: status.ABORTED,
    field: "delta",
    call: (s) => s.state.apply({ projectId: "c", delta: similarity("x", "y", 0.9), snapshotGeneration: BigInt(C_GENERATION - 1) }),
  },
  {
    rpc: "StateService.Apply",
    reason: "LIMIT_EXCEEDED",
    code: status.RESOURCE_EXHAUSTED,
    field: "delta.streaming.increments[0].increment",
    metadata: { limit: String(2 ** 53 - 1) },
    call: (s) =>
      s.state.apply({
        projectId: "c",
        delta: delta(hard, { case: "streaming", value: { increments: [{ item: "more", increment: 8n }] } }),
      }),
  },
  {
    rpc: "StateService.GetSnapshot",
    reason: "GENERATION_COMPACTED",
    code: status.OUT_OF_RANGE,
    field: "at_generation",
    metadata: { current_generation: String(C_GENERATION) },
    call: (s) => s.state.getSnapshot({ projectId: "c", atGeneration: 1n }),
  },
  {
    rpc: "StateService.GetSnapshot",
    reason: "GENERATION_IN_FUTURE",
    code: status.OUT_OF_RANGE,
    field: "at_generation",
    metadata: { current_generation: String(C_GENERATION) },
    call: (s) => s.state.getSnapshot({ projectId: "c", atGeneration: 99n }),
  },
  {
    rpc: "StateService.GetSnapshot",
    reason: "LIMIT_EXCEEDED",
    code: status.RESOURCE_EXHAUSTED,
    metadata: { limit: String(MAX_MESSAGE_BYTES) },
    call: (s) => s.state.getSnapshot({ projectId: "big", includeState: true }),
  },
  {
    rpc: "StateService.CreateCheckpoint",
    reason: "CHECKPOINT_ALREADY_EXISTS",
    code: status.ALREADY_EXISTS,
    field: "checkpoint_id",
    call: (s) => s.state.createCheckpoint({ projectId: "c", checkpointId: "ok" }),
  },
  {
    rpc: "StateService.CreateCheckpoint",
    reason: "LIMIT_EXCEEDED",
    code: status.RESOURCE_EXHAUSTED,
    metadata: { limit: String(MAX_CHECKPOINTS), project_id: "c" },
    call: (s) => s.state.createCheckpoint({ projectId: "c", checkpointId: "one-more" }),
  },
  {
    rpc: "StateService.ListCheckpoints",
    reason: "INVALID_PAGE_TOKEN",
    code: status.INVALID_ARGUMENT,
    field: "page_token",
    call: (s) => s.state.listCheckpoints({ projectId: "c", pageToken: "not-a-token" }),
  },
  ...checkpointReadRows("StateService.GetCheckpoint", (s, checkpointId) => s.state.getCheckpoint({ projectId: "c", checkpointId })),
  ...checkpointReadRows("StateService.DeleteCheckpoint", (s, checkpointId) => s.state.deleteCheckpoint({ projectId: "c", checkpointId }), [
    "missing",
  ]),
  ...checkpointReadRows("StateService.RestoreCheckpoint", (s, checkpointId) => s.state.restoreCheckpoint({ projectId: "c", checkpointId })),
  ...forkRows(),
  {
    rpc: "StateService.UpdateProjectConfig",
    reason: "SIMILARITY_CAPACITY",
    code: status.FAILED_PRECONDITION,
    field: "config.max_similarity_pairs",
    call: (s) =>
      s.state.updateProjectConfig({ projectId: "c", config: { maxSimilarityPairs: 1 }, updateMask: { paths: ["max_similarity_pairs"] } }),
  },
];

function served(name: string): ServedRpc {
  const rpc = SERVED_RPCS.find((r) => r.name === name);
  if (rpc === undefined) throw new TypeError(`${name} is not served`);
  return rpc;
}

/** `rpc` on a project never created: NOT_FOUND / PROJECT_NOT_FOUND naming it. */
export function projectNotFound(name: string): Row {
  const rpc = served(name);
  return {
    rpc: name,
    reason: "PROJECT_NOT_FOUND",
    code: status.NOT_FOUND,
    field: "project_id",
    metadata: { project_id: "absent" },
    call: (s) => callRpc(s, rpc, validRequest(rpc, "absent")),
  };
}

/** `rpc` on project c expecting another uid: FAILED_PRECONDITION / PROJECT_UID_MISMATCH naming expected_project_uid. */
function uidMismatch(name: string): Row {
  const rpc = served(name);
  return {
    rpc: name,
    reason: "PROJECT_UID_MISMATCH",
    code: status.FAILED_PRECONDITION,
    field: "expected_project_uid",
    metadata: { expected_project_uid: OTHER_UID },
    call: (s) => callRpc(s, rpc, validRequest(rpc, "c", { expectedProjectUid: OTHER_UID })),
  };
}

/** The failures of a call reading checkpoint `missing` ("gone"), `damaged` ("bad") or `newer` (a newer format). */
function checkpointReadRows(
  rpc: string,
  call: (s: TestServer, checkpointId: string) => Promise<unknown>,
  kinds: readonly ("missing" | "damaged" | "newer")[] = ["missing", "damaged", "newer"],
): Row[] {
  const rows: Record<(typeof kinds)[number], Row> = {
    missing: {
      rpc,
      reason: "CHECKPOINT_NOT_FOUND",
      code: status.NOT_FOUND,
      field: "checkpoint_id",
      metadata: { checkpoint_id: "gone" },
      call: (s) => call(s, "gone"),
    },
    damaged: {
      rpc,
      reason: "CHECKPOINT_CORRUPTED",
      code: status.DATA_LOSS,
      metadata: { checkpoint_id: "bad", project_id: "c" },
      call: (s) => call(s, "bad"),
    },
    newer: {
      rpc,
      reason: "UNSUPPORTED_FORMAT",
      code: status.FAILED_PRECONDITION,
      metadata: { project_id: "c", stored: "checkpoint newer" },
      call: (s) => call(s, "newer"),
    },
  };
  return kinds.map((k) => rows[k]);
}

/** ForkProject rows: a fork of project c to a new project, refused for each documented reason. */
function forkRows(): Row[] {
  const fork = (s: TestServer, extra: object) => s.state.forkProject({ projectId: "c", targetProjectId: "fork", ...extra });
  const at = (checkpointId: string) => ({ origin: { case: "checkpointId" as const, value: checkpointId } });
  const gen = (g: bigint) => ({ origin: { case: "atGeneration" as const, value: g } });
  return [
    {
      rpc: "StateService.ForkProject",
      reason: "PROJECT_ALREADY_EXISTS",
      code: status.ALREADY_EXISTS,
      field: "target_project_id",
      metadata: { project_id: "full" },
      call: (s) => fork(s, { targetProjectId: "full" }),
    },
    ...checkpointReadRows("StateService.ForkProject", (s, checkpointId) => fork(s, at(checkpointId))),
    {
      rpc: "StateService.ForkProject",
      reason: "GENERATION_COMPACTED",
      code: status.OUT_OF_RANGE,
      field: "at_generation",
      metadata: { current_generation: String(C_GENERATION) },
      call: (s) => fork(s, gen(1n)),
    },
    {
      rpc: "StateService.ForkProject",
      reason: "GENERATION_IN_FUTURE",
      code: status.OUT_OF_RANGE,
      field: "at_generation",
      metadata: { current_generation: String(C_GENERATION) },
      call: (s) => fork(s, gen(99n)),
    },
  ];
}
