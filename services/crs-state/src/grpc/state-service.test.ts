import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { EntryIndex } from "@crs/contracts/gen/crs/state/v1/common_pb";
import { ProofStatus, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { errorDetailOf } from "@crs/runtime";
import { ClassicLevel } from "classic-level";
import { decodeMeta, encodeMeta } from "../projects/project-meta.js";
import { keys } from "../store/level/level-keys.js";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./test-support.js";

const proofDelta = (nodeId: string, proof: bigint, source = SignalSource.SOFT) => ({
  source,
  kind: { case: "proof" as const, value: { entries: [{ nodeId, value: { proof, disproof: 10n, status: ProofStatus.EXPANDED, source } }] } },
});

describe("StateService through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => {
    await s.stop();
  });

  it("refuses to apply to a project that was never created, so a mistyped id creates nothing", async () => {
    await expectError(s.state.apply({ projectId: "never-made", delta: proofDelta("n", 1n) }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
    await expectError(s.state.getGeneration({ projectId: "never-made" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
  });

  it("creates a project with a uid and config defaults, and refuses a second create", async () => {
    const created = await s.state.createProject({ projectId: "p-create", config: { maxClauses: 7 } });
    assert.equal(created.header?.generation, 0n, "a new project is at generation 0");
    assert.match(created.header?.projectUid ?? "", /^[0-9a-f]{16,}$/, "a server-assigned uid");
    assert.equal(created.config?.maxClauses, 7, "the given config");
    assert.equal(created.config?.circuitBreakerDefaultThreshold, 2, "defaults filled in");
    await expectError(s.state.createProject({ projectId: "p-create" }), status.ALREADY_EXISTS, "PROJECT_ALREADY_EXISTS");
    const config = await s.state.getProjectConfig({ projectId: "p-create" });
    assert.equal(config.config?.maxClauses, 7, "config read back");
  });

  it("answers a retried create with its stored answer, not the config changed since, and refuses the id with another request", async () => {
    const req = { projectId: "p-create-retry", config: { maxClauses: 7 }, requestId: "create-1" };
    const first = await s.state.createProject(req);
    await s.state.updateProjectConfig({ projectId: req.projectId, config: { maxClauses: 9 }, updateMask: { paths: ["max_clauses"] } });
    const again = await s.state.createProject(req);
    assert.deepEqual(
      [again.header?.replayed, again.header?.projectUid, again.header?.generation, again.config?.maxClauses],
      [true, first.header?.projectUid, 0n, 7],
      "the first answer",
    );
    await expectError(
      s.state.createProject({ ...req, config: { maxClauses: 8 } }),
      status.INVALID_ARGUMENT,
      "REQUEST_ID_REUSED",
      "request_id",
    );
  });

  it("rejects ids outside the grammar naming the field, before anything changes", async () => {
    await expectError(s.state.createProject({ projectId: "../etc" }), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "project_id");
    await expectError(s.state.createProject({ projectId: "a".repeat(129) }), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "project_id");
    await s.state.createProject({ projectId: "p-ids" });
    await expectError(
      s.state.apply({ projectId: "p-ids", delta: proofDelta("bad id", 1n) }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "delta.proof.entries[0].node_id",
    );
    await expectError(s.state.apply({ projectId: "p-ids" }), status.INVALID_ARGUMENT, "DELTA_REQUIRED", "delta");
    assert.equal((await s.state.getGeneration({ projectId: "p-ids" })).header?.generation, 0n, "nothing changed");
  });

  it("answers a failed entry check inside a delta as DELTA_VALIDATION, a streaming total past 2^53-1 as LIMIT_EXCEEDED and a missing entry as INDEX_NOT_FOUND", async () => {
    await s.state.createProject({ projectId: "p-faults" });
    const apply = (kind: NonNullable<Parameters<TestServer["state"]["apply"]>[0]["delta"]>["kind"]) =>
      s.state.apply({ projectId: "p-faults", delta: { source: SignalSource.HARD, kind } });
    await expectError(
      apply({ case: "similarity", value: { updates: [{ a: "x", b: "y", distance: -1 }] } }),
      status.INVALID_ARGUMENT,
      "DELTA_VALIDATION",
      "delta.similarity.updates[0].distance",
    );
    await expectError(
      apply({ case: "streaming", value: { increments: [{ item: "i", increment: 0n }] } }),
      status.INVALID_ARGUMENT,
      "DELTA_VALIDATION",
      "delta.streaming.increments[0].increment",
    );
    await apply({ case: "streaming", value: { increments: [{ item: "big", increment: 2n ** 53n - 4n }] } });
    const total = await expectError(
      apply({
        case: "streaming",
        value: {
          increments: [
            { item: "more", increment: 2n },
            { item: "more", increment: 2n },
          ],
        },
      }),
      status.RESOURCE_EXHAUSTED,
      "LIMIT_EXCEEDED",
      "delta.streaming.increments[1].increment",
    );
    assert.equal(errorDetailOf(total)?.metadata["limit"], String(2 ** 53 - 1), "names the limit");
    const missing = await expectError(
      apply({ case: "constraint", value: { remove: ["absent"] } }),
      status.NOT_FOUND,
      "INDEX_NOT_FOUND",
      "delta.constraint.remove[0]",
    );
    const detail = errorDetailOf(missing);
    assert.deepEqual([detail?.metadata["index"], detail?.metadata["id"]], ["constraint", "absent"], "names the index and the id");
    assert.equal(
      (await s.state.getGeneration({ projectId: "p-faults" })).header?.generation,
      1n,
      "nothing changed but the one delta that fit",
    );
  });

  it("refuses an edge that would close a dependency cycle as FAILED_PRECONDITION, since it depends on the edges stored", async () => {
    await s.state.createProject({ projectId: "p-cycle" });
    const edge = (fromId: string, toId: string) =>
      s.state.apply({
        projectId: "p-cycle",
        delta: { source: SignalSource.HARD, kind: { case: "dependency", value: { addEdges: [{ fromId, toId }] } } },
      });
    await edge("a", "b");
    await expectError(edge("b", "a"), status.FAILED_PRECONDITION, "DEPENDENCY_CYCLE", "delta.dependency.add_edges[0]");
    assert.equal((await s.state.getGeneration({ projectId: "p-cycle" })).header?.generation, 1n, "only the first edge applied");
  });

  it("counts an analytics delta's entries as its record, its done marker and its found marker", async () => {
    await s.state.createProject({ projectId: "p-analytics" });
    const run = (resultCount: bigint, results: string[]) =>
      s.state.apply({
        projectId: "p-analytics",
        delta: {
          source: SignalSource.HARD,
          kind: { case: "analytics", value: { record: { queryType: "hotspots", queryTimeUnixMs: 1000n, resultCount, results } } },
        },
      });
    assert.equal((await run(3n, ["a", "b", "c"])).metrics?.entriesModified, 3n, "a run that found something writes three entries");
    assert.equal((await run(0n, [])).metrics?.entriesModified, 2n, "a run that found nothing writes two");
  });

  it("replays a retried request id with the first answer and refuses the id with other content", async () => {
    await s.state.createProject({ projectId: "p-retry" });
    const first = await s.state.apply({ projectId: "p-retry", delta: proofDelta("n1", 5n), options: { requestId: "req-1" } });
    assert.equal(first.header?.generation, 1n);
    assert.equal(first.header?.replayed, false);
    const again = await s.state.apply({ projectId: "p-retry", delta: proofDelta("n1", 5n), options: { requestId: "req-1" } });
    assert.equal(again.header?.generation, 1n, "same generation: not applied twice");
    assert.equal(again.header?.replayed, true, "marked as a replay");
    await expectError(
      s.state.apply({ projectId: "p-retry", delta: proofDelta("n1", 6n), options: { requestId: "req-1" } }),
      status.INVALID_ARGUMENT,
      "REQUEST_ID_REUSED",
    );
    assert.equal((await s.state.getGeneration({ projectId: "p-retry" })).header?.generation, 1n, "still one change");
  });

  it("does not remember a failed mutation, so its retry is checked again", async () => {
    await s.state.createProject({ projectId: "p-fail" });
    const soft = proofDelta("n", 18446744073709551615n, SignalSource.SOFT);
    await expectError(
      s.state.apply({ projectId: "p-fail", delta: soft, options: { requestId: "r" } }),
      status.INVALID_ARGUMENT,
      "HARD_SOFT_BOUNDARY",
    );
    const ok = await s.state.apply({ projectId: "p-fail", delta: proofDelta("n", 3n), options: { requestId: "r" } });
    assert.equal(ok.header?.replayed, false, "the id was free again");
  });

  it("fails stale preconditions: generation, project uid and per-entry mod generation", async () => {
    const { header } = await s.state.createProject({ projectId: "p-pre" });
    await s.state.apply({ projectId: "p-pre", delta: proofDelta("n", 1n) });
    await expectError(
      s.state.apply({ projectId: "p-pre", delta: proofDelta("m", 1n), options: { expectedGeneration: 0n } }),
      status.ABORTED,
      "GENERATION_MISMATCH",
    );
    await expectError(
      s.state.apply({ projectId: "p-pre", delta: proofDelta("m", 1n), options: { expectedProjectUid: "0000" } }),
      status.FAILED_PRECONDITION,
      "PROJECT_UID_MISMATCH",
    );
    const stale = { index: EntryIndex.PROOF, key: "n", modGeneration: 0n };
    const modified = await expectError(
      s.state.apply({ projectId: "p-pre", delta: proofDelta("m", 1n), options: { expectedEntries: [stale] } }),
      status.ABORTED,
      "ENTRY_MODIFIED",
      "options.expected_entries[0].key",
    );
    assert.match(modified.details, /n/, "names the entry");
    await expectError(
      s.state.apply({ projectId: "p-pre", delta: proofDelta("m", 1n), options: { expectedEntries: [stale] }, validateOnly: true }),
      status.ABORTED,
      "ENTRY_MODIFIED",
      "options.expected_entries[0].key",
    );
    const current = { index: EntryIndex.PROOF, key: "n", modGeneration: 1n };
    const ok = await s.state.apply({
      projectId: "p-pre",
      delta: proofDelta("m", 1n),
      options: { expectedEntries: [current], expectedProjectUid: header?.projectUid ?? "" },
    });
    assert.equal(ok.header?.generation, 2n, "current preconditions pass");
  });

  it("refuses a soft composite that carries a hard delta, however deep, and applies nothing", async () => {
    await s.state.createProject({ projectId: "p-composite" });
    const composite = (source: SignalSource, deltas: unknown[]) => ({ source, kind: { case: "composite" as const, value: { deltas } } });
    const hard = proofDelta("h", 1n, SignalSource.HARD);
    const soft = proofDelta("s", 1n);
    await expectError(
      s.state.apply({ projectId: "p-composite", delta: composite(SignalSource.SOFT, [soft, hard]) as never }),
      status.INVALID_ARGUMENT,
      "HARD_SOFT_BOUNDARY",
      "delta.composite.deltas[1].source",
    );
    await expectError(
      s.state.apply({
        projectId: "p-composite",
        delta: composite(SignalSource.SOFT, [composite(SignalSource.UNSPECIFIED, [soft, hard])]) as never,
      }),
      status.INVALID_ARGUMENT,
      "HARD_SOFT_BOUNDARY",
      "delta.composite.deltas[0].source",
    );
    assert.equal((await s.state.getGeneration({ projectId: "p-composite" })).header?.generation, 0n, "nothing applied");
    for (const outer of [SignalSource.HARD, SignalSource.UNSPECIFIED]) {
      const r = await s.state.apply({ projectId: "p-composite", delta: composite(outer, [soft, hard]) as never });
      assert.equal(r.metrics?.entriesModified, 2n, `a ${SignalSource[outer]} composite may carry a hard delta`);
    }
  });

  it("validates without applying when validate_only is set", async () => {
    await s.state.createProject({ projectId: "p-validate" });
    const r = await s.state.apply({ projectId: "p-validate", delta: proofDelta("n", 1n), validateOnly: true });
    assert.equal(r.header?.generation, 0n, "nothing applied");
    await expectError(
      s.state.apply({ projectId: "p-validate", delta: proofDelta("n", 18446744073709551615n), validateOnly: true }),
      status.INVALID_ARGUMENT,
      "HARD_SOFT_BOUNDARY",
    );
  });

  it("refuses in a dry run the options the real apply would refuse", async () => {
    await s.state.createProject({ projectId: "p-dry-options" });
    const dry = { projectId: "p-dry-options", delta: proofDelta("n", 1n), validateOnly: true };
    await expectError(
      s.state.apply({ ...dry, options: { requestId: "bad id!" } }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "options.request_id",
    );
    await expectError(
      s.state.apply({ ...dry, options: { expectedEntries: [{ index: EntryIndex.PROOF, key: "n", otherKey: "m" }] } }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "options.expected_entries[0].other_key",
    );
    const ok = await s.state.apply({ ...dry, options: { requestId: "dry-1" } });
    assert.equal(ok.header?.replayed, false, "a valid dry run answers fresh");
    const real = await s.state.apply({ ...dry, validateOnly: false, options: { requestId: "dry-1" } });
    assert.deepEqual([real.header?.replayed, real.header?.generation], [false, 1n], "the dry run remembered nothing");
  });

  it("reads snapshots at past generations and refuses future ones", async () => {
    await s.state.createProject({ projectId: "p-snap" });
    await s.state.apply({ projectId: "p-snap", delta: proofDelta("a", 1n) });
    await s.state.apply({ projectId: "p-snap", delta: proofDelta("b", 2n) });
    const past = await s.state.getSnapshot({ projectId: "p-snap", atGeneration: 1n, includeState: true });
    assert.equal(past.header?.generation, 1n);
    assert.deepEqual(
      past.state?.proofs.map((p) => p.nodeId),
      ["a"],
      "the state as it was",
    );
    assert.equal(past.state?.proofs[0]?.value?.modGeneration, 1n, "entries carry their mod generation");
    assert.equal(past.snapshot?.generationsBehind, 1n);
    await expectError(
      s.state.getSnapshot({ projectId: "p-snap", atGeneration: 9n }),
      status.OUT_OF_RANGE,
      "GENERATION_IN_FUTURE",
      "at_generation",
    );
    const g = await s.state.getGeneration({ projectId: "p-snap" });
    assert.equal(g.oldestSnapshotGeneration, 0n);
    assert.equal(g.oldestChangeGeneration, 1n);
  });

  it("refuses a fork from a generation the source has not reached as GENERATION_IN_FUTURE, not GENERATION_COMPACTED", async () => {
    await s.state.createProject({ projectId: "p-fork-future" });
    await s.state.apply({ projectId: "p-fork-future", delta: proofDelta("a", 1n) });
    const error = await expectError(
      s.state.forkProject({ projectId: "p-fork-future", targetProjectId: "p-fork-future-2", origin: { case: "atGeneration", value: 5n } }),
      status.OUT_OF_RANGE,
      "GENERATION_IN_FUTURE",
      "at_generation",
    );
    assert.equal(errorDetailOf(error)?.metadata["current_generation"], "1", "names the generation reached, as reads do");
    await expectError(s.state.getGeneration({ projectId: "p-fork-future-2" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
  });

  it("gives a re-created project a new uid, so its old page tokens and uid preconditions fail", async () => {
    const first = await s.state.createProject({ projectId: "p-again" });
    for (const id of ["x", "y", "z"]) await s.state.apply({ projectId: "p-again", delta: proofDelta(id, 1n) });
    const page = await s.proofs.listProofNumbers({ projectId: "p-again", pageSize: 1 });
    assert.ok(page.nextPageToken !== "", "more pages");
    const deleted = await s.state.deleteProject({ projectId: "p-again", expectedProjectUid: first.header?.projectUid ?? "" });
    assert.equal(deleted.header?.generation, 3n, "the last generation it had");
    const second = await s.state.createProject({ projectId: "p-again" });
    assert.notEqual(second.header?.projectUid, first.header?.projectUid, "a new incarnation");
    await expectError(
      s.proofs.listProofNumbers({ projectId: "p-again", pageSize: 1, pageToken: page.nextPageToken }),
      status.INVALID_ARGUMENT,
      "INVALID_PAGE_TOKEN",
      "page_token",
    );
    await expectError(
      s.state.deleteProject({ projectId: "p-again", expectedProjectUid: first.header?.projectUid ?? "" }),
      status.FAILED_PRECONDITION,
      "PROJECT_UID_MISMATCH",
    );
  });

  it("creates, lists, reads, restores and deletes checkpoints, and forks from one", async () => {
    await s.state.createProject({ projectId: "p-cp" });
    await s.state.apply({ projectId: "p-cp", delta: proofDelta("a", 1n) });
    const cp = await s.state.createCheckpoint({ projectId: "p-cp", checkpointId: "before" });
    assert.equal(cp.checkpoint?.generation, 1n);
    assert.equal(cp.header?.generation, 1n, "a checkpoint is not a change");
    await expectError(
      s.state.createCheckpoint({ projectId: "p-cp", checkpointId: "before" }),
      status.ALREADY_EXISTS,
      "CHECKPOINT_ALREADY_EXISTS",
    );
    await s.state.apply({ projectId: "p-cp", delta: proofDelta("b", 1n) });
    const list = await s.state.listCheckpoints({ projectId: "p-cp" });
    assert.deepEqual(
      list.checkpoints.map((c) => c.checkpointId),
      ["before"],
    );
    assert.equal((await s.state.getCheckpoint({ projectId: "p-cp", checkpointId: "before" })).checkpoint?.generation, 1n);
    const restored = await s.state.restoreCheckpoint({ projectId: "p-cp", checkpointId: "before", options: { requestId: "restore-1" } });
    assert.equal(restored.header?.generation, 3n, "the generation moves forward");
    assert.equal(restored.restoredFromGeneration, 1n);
    const replay = await s.state.restoreCheckpoint({ projectId: "p-cp", checkpointId: "before", options: { requestId: "restore-1" } });
    assert.equal(replay.header?.replayed, true, "a retried restore replays");
    const snap = await s.state.getSnapshot({ projectId: "p-cp", includeState: true });
    assert.deepEqual(
      snap.state?.proofs.map((p) => p.nodeId),
      ["a"],
      "b is gone",
    );
    const fork = await s.state.forkProject({
      projectId: "p-cp",
      targetProjectId: "p-cp-fork",
      origin: { case: "checkpointId", value: "before" },
    });
    assert.equal(fork.sourceGeneration, 1n);
    assert.notEqual(fork.header?.projectUid, snap.header?.projectUid, "the fork has its own uid");
    await expectError(
      s.state.forkProject({ projectId: "p-cp", targetProjectId: "p-cp-fork" }),
      status.ALREADY_EXISTS,
      "PROJECT_ALREADY_EXISTS",
    );
    await s.state.deleteCheckpoint({ projectId: "p-cp", checkpointId: "before" });
    await expectError(s.state.getCheckpoint({ projectId: "p-cp", checkpointId: "before" }), status.NOT_FOUND, "CHECKPOINT_NOT_FOUND");
  });

  it("pages checkpoints after the last id returned, so a deleted or added one neither skips nor repeats a row", async () => {
    await s.state.createProject({ projectId: "p-cp-pages" });
    for (const checkpointId of ["b", "c", "d"]) await s.state.createCheckpoint({ projectId: "p-cp-pages", checkpointId });
    const first = await s.state.listCheckpoints({ projectId: "p-cp-pages", pageSize: 1 });
    await s.state.deleteCheckpoint({ projectId: "p-cp-pages", checkpointId: "b" });
    await s.state.createCheckpoint({ projectId: "p-cp-pages", checkpointId: "a" });
    await s.state.apply({ projectId: "p-cp-pages", delta: proofDelta("n", 1n) });
    const ids = first.checkpoints.map((c) => c.checkpointId);
    const generations: (bigint | undefined)[] = [];
    let pageToken = first.nextPageToken;
    while (pageToken !== "" && ids.length < 10) {
      const page = await s.state.listCheckpoints({ projectId: "p-cp-pages", pageSize: 1, pageToken });
      ids.push(...page.checkpoints.map((c) => c.checkpointId));
      generations.push(page.header?.generation);
      pageToken = page.nextPageToken;
    }
    assert.deepEqual(ids, ["b", "c", "d"], "each checkpoint after the last one returned, once");
    assert.deepEqual(generations, [0n, 0n], "later pages carry the generation of the first");
  });

  it("answers a checkpoint taken during a write with the generation it captured, not the one the write reached", async () => {
    await s.state.createProject({ projectId: "p-cp-race" });
    for (let i = 0; i < 10; i++) {
      const [cp] = await Promise.all([
        s.state.createCheckpoint({ projectId: "p-cp-race", checkpointId: `during-${i}` }),
        s.state.apply({ projectId: "p-cp-race", delta: proofDelta(`n${i}`, 1n) }),
      ]);
      assert.equal(cp.header?.generation, cp.checkpoint?.generation, `checkpoint ${i}: a checkpoint is not a change`);
    }
  });

  it("replays a retried restore after its checkpoint was deleted, instead of failing CHECKPOINT_NOT_FOUND", async () => {
    await s.state.createProject({ projectId: "p-cp-gone" });
    await s.state.apply({ projectId: "p-cp-gone", delta: proofDelta("a", 1n) });
    await s.state.createCheckpoint({ projectId: "p-cp-gone", checkpointId: "before" });
    await s.state.apply({ projectId: "p-cp-gone", delta: proofDelta("b", 1n) });
    const req = { projectId: "p-cp-gone", checkpointId: "before", options: { requestId: "restore-gone" } };
    const first = await s.state.restoreCheckpoint(req);
    await s.state.deleteCheckpoint({ projectId: "p-cp-gone", checkpointId: "before" });
    const again = await s.state.restoreCheckpoint(req);
    assert.deepEqual(
      [again.header?.replayed, again.header?.generation, again.restoredFromGeneration],
      [true, first.header?.generation, first.restoredFromGeneration],
      "the stored answer",
    );
    await expectError(
      s.state.restoreCheckpoint({ ...req, checkpointId: "never-made" }),
      status.INVALID_ARGUMENT,
      "REQUEST_ID_REUSED",
      "options.request_id",
    );
  });
});

describe("StateService on the durable store", () => {
  it("replays a request id retried after a restart with the stored answer", async () => {
    const first = await startTestServer({ durable: true });
    try {
      await first.state.createProject({ projectId: "durable" });
      const a = await first.state.apply({ projectId: "durable", delta: proofDelta("n", 2n), options: { requestId: "once" } });
      assert.equal(a.header?.generation, 1n);
    } finally {
      await first.stop();
    }
    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      const b = await second.state.apply({ projectId: "durable", delta: proofDelta("n", 2n), options: { requestId: "once" } });
      assert.equal(b.header?.generation, 1n, "not applied again");
      assert.equal(b.header?.replayed, true, "the stored answer");
      const snap = await second.state.getSnapshot({ projectId: "durable", includeState: true });
      assert.equal(snap.state?.proofs[0]?.value?.proof, 2n, "the state survived");
    } finally {
      await second.stop();
      await removeDataDir(first.dataDir);
    }
  });

  it("loads a project whose catalogue entry predates the kept create answer, and still answers its retried create", async () => {
    const first = await startTestServer({ durable: true });
    const req = { projectId: "older-meta", config: { maxClauses: 7 }, requestId: "create-old" };
    try {
      await first.state.createProject(req);
    } finally {
      await first.stop();
    }
    const db = new ClassicLevel<string, Uint8Array>(first.dataDir, { keyEncoding: "utf8", valueEncoding: "view" });
    try {
      const meta = decodeMeta((await db.get(keys.meta(req.projectId))) ?? new Uint8Array(), req.projectId);
      assert.ok(meta.ok && meta.value.createAnswer !== undefined, "a create with a request id keeps its answer");
      const { createFingerprint: _f, createAnswer: _a, ...older } = meta.value;
      await db.put(keys.meta(req.projectId), encodeMeta(older));
    } finally {
      await db.close();
    }
    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      assert.equal((await second.state.getGeneration({ projectId: req.projectId })).header?.generation, 0n, "the project loads");
      const again = await second.state.createProject(req);
      assert.deepEqual([again.header?.replayed, again.config?.maxClauses], [true, 7], "the retry is answered, not refused");
    } finally {
      await second.stop();
      await removeDataDir(first.dataDir);
    }
  });
});
