/**
 * Test support: every served crs.state.v1 RPC with a request that passes its own field checks, so a
 * test can call each one and see only what the project's state makes of it.
 */
import type { DescMethod } from "@bufbuild/protobuf";
import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { ClauseService } from "@crs/contracts/gen/crs/state/v1/clause_pb";
import { EntryIndex } from "@crs/contracts/gen/crs/state/v1/common_pb";
import { CycleService } from "@crs/contracts/gen/crs/state/v1/cycle_pb";
import { HistoryService } from "@crs/contracts/gen/crs/state/v1/history_pb";
import { IndexService } from "@crs/contracts/gen/crs/state/v1/index_pb";
import { MaintenanceService } from "@crs/contracts/gen/crs/state/v1/maintenance_pb";
import { ProofService } from "@crs/contracts/gen/crs/state/v1/proof_pb";
import { QueryService } from "@crs/contracts/gen/crs/state/v1/query_pb";
import { SimilarityService } from "@crs/contracts/gen/crs/state/v1/similarity_pb";
import { StateService } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { StepService } from "@crs/contracts/gen/crs/state/v1/step_pb";
import { ProofStatus, ProofUpdateType, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import type { TestServer } from "./test-support.js";

/** The served services, each with the key of its client in {@link TestServer}. */
export const SERVED_SERVICES: readonly (readonly [GenService<GenServiceMethods>, keyof TestServer])[] = [
  [StateService, "state"],
  [StepService, "steps"],
  [ProofService, "proofs"],
  [ClauseService, "clauses"],
  [SimilarityService, "similarity"],
  [QueryService, "queries"],
  [IndexService, "indexes"],
  [HistoryService, "history"],
  [CycleService, "cycles"],
  [MaintenanceService, "maintenance"],
];

/** One served RPC: its descriptor and the client key of its service. */
export interface ServedRpc {
  /** `Service.Method`, as the proto names it. */
  readonly name: string;
  /** The method's descriptor. */
  readonly method: DescMethod;
  /** The key of the service's client in {@link TestServer}. */
  readonly client: keyof TestServer;
}

/** Every served RPC, in proto order. */
export const SERVED_RPCS: readonly ServedRpc[] = SERVED_SERVICES.flatMap(([service, client]) =>
  service.methods.map((method) => ({ name: `${service.name}.${method.name}`, method, client })),
);

/** True when the RPC's request has a field of that proto name. */
export function hasField(rpc: ServedRpc, name: string): boolean {
  return rpc.method.input.fields.some((f) => f.name === name);
}

/** A node id whose proof entry a test can name in `expected_entries`. */
export const KNOWN_NODE = "known";

// Field values a request of any RPC takes as valid; each RPC reads the ones its message has.
const VALID_FIELDS: Readonly<Record<string, unknown>> = {
  sessionId: "s",
  nodeId: KNOWN_NODE,
  nodeIds: [KNOWN_NODE],
  checkpointId: "cp",
  targetProjectId: "fork-target",
  tool: "Grep",
  stateKey: "state-a",
  a: "x",
  b: "y",
  key: "x",
  k: 1,
  limit: 1,
  clauseId: "c",
  constraintId: "c",
  generation: 1n,
  fromId: "x",
  toId: "y",
  items: ["x"],
  status: ProofStatus.PROVEN,
  source: SignalSource.HARD,
  distance: 0.5,
  step: { sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "Grep", outcome: "success" },
  clause: { id: "c", literals: [{ variable: "tool:Grep", negated: true }], source: SignalSource.HARD },
  update: { nodeId: KNOWN_NODE, type: ProofUpdateType.INCREMENT, delta: 1n, source: SignalSource.SOFT },
  updateMask: { paths: ["max_clauses"] },
  config: { maxClauses: 50 },
  delta: {
    source: SignalSource.SOFT,
    kind: { case: "similarity", value: { updates: [{ a: "x", b: "y", distance: 0.5 }] } },
  },
};

/** A request of `rpc` on `projectId` that passes the RPC's field checks, with `extra` over it. */
export function validRequest(rpc: ServedRpc, projectId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const request: Record<string, unknown> = { projectId };
  for (const field of rpc.method.input.fields)
    if (field.oneof === undefined && field.localName in VALID_FIELDS) request[field.localName] = VALID_FIELDS[field.localName];
  return { ...request, ...extra };
}

/** Calls `rpc` on `server` with `request` (the response is not needed). */
export function callRpc(server: TestServer, rpc: ServedRpc, request: Record<string, unknown>): Promise<unknown> {
  const client = server[rpc.client] as unknown as Record<string, (req: unknown) => Promise<unknown>>;
  const call = client[rpc.method.localName];
  if (call === undefined) throw new TypeError(`no client method for ${rpc.name}`);
  return call(request);
}

/** An entry precondition that never holds: the known node's proof entry at a generation it never had. */
export const STALE_ENTRY = { index: EntryIndex.PROOF, key: KNOWN_NODE, modGeneration: 999n };
