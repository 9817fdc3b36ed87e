import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { JOURNAL_RECORD_FORMAT } from "../journal/index.js";
import { documentedReasons, isDocumented } from "./proto-reasons.js";
import { KNOWN_NODE, SERVED_RPCS, STALE_ENTRY, callRpc, hasField, validRequest, type ServedRpc } from "./rpc-requests.js";
import { appendNewer } from "./stored-edits.js";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./test-support.js";

// The reasons every service comment promises for a whole class of calls (a project call, a read at
// a generation, a mutation), checked on every served RPC of that class through the real client,
// with the code, the field and the metadata errors.proto documents for each.

const PROJECT = "blanket";
const DOCUMENTED = documentedReasons();
const OTHER_UID = "f".repeat(32);

/** Asserts that `call` fails as documented and that its ErrorInfo metadata holds `metadata`. */
async function expectReason(
  rpc: ServedRpc,
  call: Promise<unknown>,
  expected: { code: number; reason: string; field?: string; metadata?: Record<string, string> },
): Promise<void> {
  assert.ok(isDocumented(DOCUMENTED, rpc.name, expected.reason), `${expected.reason} is documented for ${rpc.name}`);
  const error = await expectError(call, expected.code, expected.reason, expected.field).catch((e: unknown) => {
    throw new Error(`${rpc.name}: ${(e as Error).message}`, { cause: e });
  });
  const metadata = errorDetailOf(error)?.metadata ?? {};
  for (const [key, value] of Object.entries(expected.metadata ?? {}))
    assert.equal(metadata[key], value, `${rpc.name} ${expected.reason}: metadata ${key} (${JSON.stringify(metadata)})`);
}

const projectRpcs = SERVED_RPCS.filter((rpc) => hasField(rpc, "project_id") && rpc.name !== "StateService.CreateProject");
const atGenerationRpcs = SERVED_RPCS.filter((rpc) =>
  rpc.method.input.fields.some((f) => f.name === "at_generation" && f.oneof === undefined),
);
const mutationRpcs = SERVED_RPCS.filter((rpc) => hasField(rpc, "options"));
const uidRpcs = SERVED_RPCS.filter((rpc) => hasField(rpc, "expected_project_uid"));

describe("the reasons every call of a class may fail with, on every served RPC", () => {
  let s: TestServer;
  let uid = "";
  let generation = 0n;
  before(async () => {
    s = await startTestServer();
    uid = (await s.state.createProject({ projectId: PROJECT, config: { snapshotRetentionGenerations: 2 } })).header?.projectUid ?? "";
    const proof = (nodeId: string) => ({
      source: SignalSource.SOFT,
      kind: { case: "proof" as const, value: { entries: [{ nodeId, value: { proof: 1n, disproof: 1n, source: SignalSource.SOFT } }] } },
    });
    for (const nodeId of [KNOWN_NODE, "b", "c"]) await s.state.apply({ projectId: PROJECT, delta: proof(nodeId) });
    await s.state.apply({ projectId: PROJECT, delta: proof("d"), options: { requestId: "used" } });
    await s.state.createCheckpoint({ projectId: PROJECT, checkpointId: "cp" });
    generation = (await s.state.getGeneration({ projectId: PROJECT })).header?.generation ?? 0n;
  });
  after(async () => {
    await s.stop();
  });

  it("refuses every project call on a project never created as NOT_FOUND / PROJECT_NOT_FOUND naming project_id", async () => {
    assert.ok(projectRpcs.length > 50, "every service's project calls are covered");
    for (const rpc of projectRpcs) {
      await expectReason(rpc, callRpc(s, rpc, validRequest(rpc, "absent")), {
        code: status.NOT_FOUND,
        reason: "PROJECT_NOT_FOUND",
        field: "project_id",
        metadata: { project_id: "absent" },
      });
    }
  });

  it("refuses a read at a generation not reached as OUT_OF_RANGE / GENERATION_IN_FUTURE with current_generation", async () => {
    assert.ok(atGenerationRpcs.length > 30, "every read at a generation is covered");
    for (const rpc of atGenerationRpcs) {
      await expectReason(rpc, callRpc(s, rpc, validRequest(rpc, PROJECT, { atGeneration: generation + 5n })), {
        code: status.OUT_OF_RANGE,
        reason: "GENERATION_IN_FUTURE",
        field: "at_generation",
        metadata: { current_generation: String(generation) },
      });
    }
  });

  it("refuses a read at a generation no longer retained as OUT_OF_RANGE / GENERATION_COMPACTED with oldest_generation and current_generation", async () => {
    for (const rpc of atGenerationRpcs) {
      await expectReason(rpc, callRpc(s, rpc, validRequest(rpc, PROJECT, { atGeneration: 1n })), {
        code: status.OUT_OF_RANGE,
        reason: "GENERATION_COMPACTED",
        field: "at_generation",
        metadata: { oldest_generation: String(generation - 1n), current_generation: String(generation) },
      });
    }
  });

  it("refuses a mutation whose expected generation is not the project's as ABORTED / GENERATION_MISMATCH with both generations", async () => {
    assert.equal(mutationRpcs.length, 13, "every mutation is covered");
    for (const rpc of mutationRpcs) {
      await expectReason(rpc, callRpc(s, rpc, validRequest(rpc, PROJECT, { options: { expectedGeneration: generation + 7n } })), {
        code: status.ABORTED,
        reason: "GENERATION_MISMATCH",
        field: "options.expected_generation",
        metadata: { expected_generation: String(generation + 7n), current_generation: String(generation) },
      });
    }
  });

  it("refuses a call whose expected uid names another incarnation as FAILED_PRECONDITION / PROJECT_UID_MISMATCH with both uids", async () => {
    const calls: [ServedRpc, Record<string, unknown>, string][] = [
      ...mutationRpcs.map((rpc): [ServedRpc, Record<string, unknown>, string] => [
        rpc,
        { options: { expectedProjectUid: OTHER_UID } },
        "options.expected_project_uid",
      ]),
      ...uidRpcs.map((rpc): [ServedRpc, Record<string, unknown>, string] => [
        rpc,
        { expectedProjectUid: OTHER_UID },
        "expected_project_uid",
      ]),
    ];
    for (const [rpc, extra, field] of calls) {
      await expectReason(rpc, callRpc(s, rpc, validRequest(rpc, PROJECT, extra)), {
        code: status.FAILED_PRECONDITION,
        reason: "PROJECT_UID_MISMATCH",
        field,
        metadata: { expected_project_uid: OTHER_UID, project_uid: uid },
      });
    }
    assert.deepEqual(
      uidRpcs.map((rpc) => rpc.name),
      ["StateService.CreateCheckpoint", "StateService.DeleteCheckpoint", "StateService.ForkProject", "StateService.DeleteProject"],
      "the calls that take a uid outside MutationOptions",
    );
  });

  it("refuses a mutation whose entry precondition fails as ABORTED / ENTRY_MODIFIED naming the entry, and a restore's as INVALID_ARGUMENT", async () => {
    for (const rpc of mutationRpcs) {
      const call = callRpc(s, rpc, validRequest(rpc, PROJECT, { options: { expectedEntries: [STALE_ENTRY] } }));
      if (rpc.name === "StateService.RestoreCheckpoint") {
        await expectReason(rpc, call, { code: status.INVALID_ARGUMENT, reason: "INVALID_ARGUMENT", field: "options.expected_entries" });
        continue;
      }
      await expectReason(rpc, call, {
        code: status.ABORTED,
        reason: "ENTRY_MODIFIED",
        field: "options.expected_entries[0].key",
        metadata: { index: "proof", key: KNOWN_NODE },
      });
    }
  });

  it("refuses a request id reused by another call as INVALID_ARGUMENT / REQUEST_ID_REUSED", async () => {
    for (const rpc of mutationRpcs) {
      await expectReason(rpc, callRpc(s, rpc, validRequest(rpc, PROJECT, { options: { requestId: "used" } })), {
        code: status.INVALID_ARGUMENT,
        reason: "REQUEST_ID_REUSED",
        field: "options.request_id",
      });
    }
    const now = await s.state.getGeneration({ projectId: PROJECT });
    assert.equal(now.header?.generation, generation, "no refused call changed the project");
  });
});

describe("a project stored in a newer format than this server reads", () => {
  let s: TestServer;
  let dataDir = "";
  let stored = "";
  before(async () => {
    const first = await startTestServer({ durable: true });
    dataDir = first.dataDir;
    let uid = "";
    try {
      uid = (await first.state.createProject({ projectId: "newer" })).header?.projectUid ?? "";
      await first.similarity.recordSimilarity({ projectId: "newer", a: "x", b: "y", distance: 1 });
    } finally {
      await first.stop();
    }
    // A record a newer server appended: intact, in a format this one does not read.
    stored = `journal record ${await appendNewer(dataDir, uid, (r) => ({ ...r, format: JOURNAL_RECORD_FORMAT + 1 }))}`;
    s = await startTestServer({ dataDir });
  });
  after(async () => {
    await s.stop();
    await removeDataDir(dataDir);
  });

  it("is refused by every project call as FAILED_PRECONDITION / UNSUPPORTED_FORMAT naming the project and the stored value", async () => {
    for (const rpc of projectRpcs) {
      await expectReason(rpc, callRpc(s, rpc, validRequest(rpc, "newer")), {
        code: status.FAILED_PRECONDITION,
        reason: "UNSUPPORTED_FORMAT",
        metadata: { project_id: "newer", stored },
      });
    }
  });
});
