/** Test support: the projects the error contract test reads, with damaged and newer-format stored data. */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { status } from "@grpc/grpc-js";
import { ConstraintType, SignalSource, type ProjectConfigSchema } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { JOURNAL_RECORD_FORMAT } from "../journal/index.js";
import { appendNewer, flipCheckpointBit, rewriteCheckpointNewer } from "./stored-edits.js";
import { startTestServer, type TestServer } from "./test-support.js";

/** One documented failure of one RPC and the call that produces it. */
export interface Row {
  /** `Service.Method`. */
  readonly rpc: string;
  /** The ErrorInfo reason. */
  readonly reason: string;
  /** The gRPC code errors.proto gives the reason. */
  readonly code: status;
  /** The ErrorInfo metadata `field`, when the reason names one. */
  readonly field?: string;
  /** ErrorInfo metadata the answer must hold. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** The call that fails so. */
  readonly call: (s: TestServer) => Promise<unknown>;
}

/** The largest message the fixture's server takes or sends: a few kilobytes of state do not fit in one answer. */
export const MAX_MESSAGE_BYTES = 16_384;
/** Checkpoints the fixture's server keeps per project; project c holds that many. */
export const MAX_CHECKPOINTS = 3;
/** A uid no project has. */
export const OTHER_UID = "f".repeat(32);
/** The fixture server's settings. */
const ENV = { GRPC_MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES), CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT: String(MAX_CHECKPOINTS) };

/** Hard and soft sources. */
export const hard = SignalSource.HARD;
export const soft = SignalSource.SOFT;
/** A delta of `kind` from `source`. */
export const delta = (source: SignalSource, kind: object) => ({ source, kind }) as never;
/** A soft similarity delta of one pair. */
export const similarity = (a: string, b: string, distance: number) =>
  delta(soft, { case: "similarity", value: { updates: [{ a, b, distance }] } });
/** A hard delta adding ordering constraint `id`. */
export const constraint = (id: string) =>
  delta(hard, { case: "constraint", value: { add: [{ id, type: ConstraintType.ORDERING, nodes: ["x", "y"], active: true }] } });
/** A hard clause forbidding `variable`. */
export const clause = (id: string, variable: string) => ({ id, literals: [{ variable, negated: true }], source: hard });

/** Project c's generation: its last change records the pair x-y, the one before it p-q. */
export const C_GENERATION = 6;

/** Builds the projects the table reads, stops, damages what it must on disk, and serves again. */
export async function serveFixture(): Promise<TestServer> {
  const first = await startTestServer({ durable: true, env: ENV });
  const uids: Record<string, string> = {};
  try {
    const create = async (projectId: string, config: MessageInitShape<typeof ProjectConfigSchema> = {}) => {
      uids[projectId] = (await first.state.createProject({ projectId, config })).header?.projectUid ?? "";
    };
    await create("c", { stalenessLimitGenerations: 2, snapshotRetentionGenerations: 2 });
    const apply = (kind: object, source = hard) => first.state.apply({ projectId: "c", delta: delta(source, kind) });
    await first.state.apply({ projectId: "c", delta: constraint("k1") });
    await apply({ case: "dependency", value: { addEdges: [{ fromId: "a", toId: "b" }] } });
    await apply({ case: "streaming", value: { increments: [{ item: "more", increment: 2n ** 53n - 8n }] } });
    await first.clauses.addClause({ projectId: "c", clause: clause("c1", "tool:Grep") });
    await first.state.apply({ projectId: "c", delta: similarity("p", "q", 1) });
    await first.state.apply({ projectId: "c", delta: similarity("x", "y", 1) });
    for (const checkpointId of ["ok", "bad", "newer"]) await first.state.createCheckpoint({ projectId: "c", checkpointId });
    await create("full", { maxSimilarityPairs: 1 });
    await first.similarity.recordSimilarity({ projectId: "full", a: "x", b: "y", distance: 1 });
    await create("big");
    const long = (i: number) => `node-${String(i).padStart(4, "0")}-${"n".repeat(80)}`;
    for (let part = 0; part < 3; part++) {
      const entries = Array.from({ length: 60 }, (_, i) => ({
        nodeId: long(part * 60 + i),
        value: { proof: 1n, disproof: 1n, source: soft },
      }));
      await first.state.apply({ projectId: "big", delta: delta(soft, { case: "proof", value: { entries } }) });
    }
    await create("newer");
    await first.similarity.recordSimilarity({ projectId: "newer", a: "x", b: "y", distance: 1 });
  } finally {
    await first.stop();
  }
  await flipCheckpointBit(first.dataDir, uids["c"] as string, "bad");
  await rewriteCheckpointNewer(first.dataDir, uids["c"] as string, "newer");
  await appendNewer(first.dataDir, uids["newer"] as string, (r) => ({ ...r, format: JOURNAL_RECORD_FORMAT + 1 }));
  return startTestServer({ dataDir: first.dataDir, env: ENV });
}
