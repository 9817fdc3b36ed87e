import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./test-support.js";

const clause = (id: string, tool: string) => ({
  id,
  literals: [{ variable: `tool:${tool}`, negated: true }],
  source: SignalSource.HARD,
  failureType: "cycle_detected",
});

const generation = async (s: TestServer, projectId: string): Promise<bigint> =>
  (await s.state.getGeneration({ projectId })).header?.generation ?? -1n;

describe("UpdateProjectConfig through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => {
    await s.stop();
  });

  it("changes only the masked fields as one journaled generation, and reads them back", async () => {
    await s.state.createProject({ projectId: "cfg", config: { maxClauses: 7 } });
    const r = await s.state.updateProjectConfig({
      projectId: "cfg",
      config: { maxHistoryEntries: 40, maxClauses: 999 },
      updateMask: { paths: ["max_history_entries"] },
    });
    assert.equal(r.header?.generation, 1n, "a config change is a mutation");
    assert.equal(r.config?.maxHistoryEntries, 40, "the masked field changed");
    assert.equal(r.config?.maxClauses, 7, "an unmasked field is not read");
    const read = await s.state.getProjectConfig({ projectId: "cfg" });
    assert.equal(read.config?.maxHistoryEntries, 40, "read back");
    const reverted = await s.state.updateProjectConfig({
      projectId: "cfg",
      updateMask: { paths: ["max_clauses", "circuit_breaker_thresholds"] },
    });
    assert.equal(reverted.config?.maxClauses, 1000, "a masked field left at zero reverts to the default");
    assert.deepEqual(reverted.config?.circuitBreakerThresholds, { find_callers: 4, find_callees: 4, Grep: 5 }, "so does a masked map");
  });

  it("replays a retried request id and refuses the id with other content", async () => {
    await s.state.createProject({ projectId: "cfg-retry" });
    const req = { projectId: "cfg-retry", config: { maxClauses: 5 }, updateMask: { paths: ["max_clauses"] }, options: { requestId: "r1" } };
    const first = await s.state.updateProjectConfig(req);
    const again = await s.state.updateProjectConfig(req);
    assert.deepEqual([first.header?.replayed, again.header?.replayed, again.header?.generation], [false, true, 1n], "applied once");
    await expectError(
      s.state.updateProjectConfig({ ...req, config: { maxClauses: 6 } }),
      status.INVALID_ARGUMENT,
      "REQUEST_ID_REUSED",
      "options.request_id",
    );
  });

  it("replays a retry naming the same update_mask paths in another order, or repeated", async () => {
    await s.state.createProject({ projectId: "cfg-mask" });
    const config = { maxClauses: 5, maxHistoryEntries: 50 };
    const options = { requestId: "mask-1" };
    const first = await s.state.updateProjectConfig({
      projectId: "cfg-mask",
      config,
      updateMask: { paths: ["max_clauses", "max_history_entries"] },
      options,
    });
    for (const paths of [
      ["max_history_entries", "max_clauses"],
      ["max_history_entries", "max_clauses", "max_history_entries"],
    ]) {
      const again = await s.state.updateProjectConfig({ projectId: "cfg-mask", config, updateMask: { paths }, options });
      assert.deepEqual(
        [again.header?.replayed, again.header?.generation, again.config?.maxClauses],
        [true, first.header?.generation, 5],
        `replayed for ${paths.join(",")}`,
      );
    }
    await expectError(
      s.state.updateProjectConfig({ projectId: "cfg-mask", config, updateMask: { paths: ["max_clauses"] }, options }),
      status.INVALID_ARGUMENT,
      "REQUEST_ID_REUSED",
      "options.request_id",
    );
  });

  it("honours expected generation and uid, and validate_only changes nothing", async () => {
    const created = await s.state.createProject({ projectId: "cfg-pre" });
    const mask = { paths: ["max_clauses"] };
    await expectError(
      s.state.updateProjectConfig({
        projectId: "cfg-pre",
        config: { maxClauses: 3 },
        updateMask: mask,
        options: { expectedGeneration: 4n },
      }),
      status.ABORTED,
      "GENERATION_MISMATCH",
    );
    await expectError(
      s.state.updateProjectConfig({
        projectId: "cfg-pre",
        config: { maxClauses: 3 },
        updateMask: mask,
        options: { expectedProjectUid: "0ff" },
      }),
      status.FAILED_PRECONDITION,
      "PROJECT_UID_MISMATCH",
    );
    const dry = await s.state.updateProjectConfig({
      projectId: "cfg-pre",
      config: { maxClauses: 3 },
      updateMask: mask,
      validateOnly: true,
    });
    assert.equal(dry.config?.maxClauses, 3, "validate_only answers the configuration it would set");
    assert.equal(dry.header?.generation, 0n, "at the unchanged generation");
    assert.equal((await s.state.getProjectConfig({ projectId: "cfg-pre" })).config?.maxClauses, 1000, "nothing applied");
    const ok = await s.state.updateProjectConfig({
      projectId: "cfg-pre",
      config: { maxClauses: 3 },
      updateMask: mask,
      options: { expectedGeneration: 0n, expectedProjectUid: created.header?.projectUid ?? "" },
    });
    assert.equal(ok.header?.generation, 1n, "preconditions that hold let it through");
  });

  it("rejects bad masks and out-of-range values naming the proto field, changing nothing", async () => {
    await s.state.createProject({ projectId: "cfg-bad" });
    const bad = (config: object, paths: string[]) => s.state.updateProjectConfig({ projectId: "cfg-bad", config, updateMask: { paths } });
    await expectError(bad({}, []), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "update_mask.paths");
    await expectError(bad({}, ["max_clause"]), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "update_mask.paths");
    await expectError(bad({}, ["*"]), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "update_mask.paths");
    await expectError(
      bad({ cycleDetectorMaxHistory: 1_000_000_000 }, ["cycle_detector_max_history"]),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "config.cycle_detector_max_history",
    );
    await expectError(bad({ clauseTtlMs: -5n }, ["clause_ttl_ms"]), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "config.clause_ttl_ms");
    await expectError(
      bad({ circuitBreakerThresholds: { Grep: 0 } }, ["circuit_breaker_thresholds"]),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      'config.circuit_breaker_thresholds["Grep"]',
    );
    assert.equal(await generation(s, "cfg-bad"), 0n, "nothing changed");
    await expectError(
      s.state.createProject({ projectId: "cfg-bad-create", config: { cycleDetectorMaxHistory: 1_000_000_000 } }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "config.cycle_detector_max_history",
    );
  });

  it("a thresholds map over 1000 tools fails LIMIT_EXCEEDED naming the field and the limit", async () => {
    await s.state.createProject({ projectId: "cfg-many" });
    const thresholds = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`tool${i}`, 1]));
    const error = await expectError(
      s.state.updateProjectConfig({
        projectId: "cfg-many",
        config: { circuitBreakerThresholds: thresholds },
        updateMask: { paths: ["circuit_breaker_thresholds"] },
      }),
      status.INVALID_ARGUMENT,
      "LIMIT_EXCEEDED",
      "config.circuit_breaker_thresholds",
    );
    assert.equal(errorDetailOf(error)?.metadata["limit"], "1000", "limit in metadata");
  });

  it("evicts clauses beyond a lowered cap, and refuses a similarity cap below the stored pairs", async () => {
    await s.state.createProject({ projectId: "cfg-shrink" });
    for (const [id, tool] of [
      ["k1", "a"],
      ["k2", "b"],
      ["k3", "c"],
    ] as const)
      await s.clauses.addClause({ projectId: "cfg-shrink", clause: clause(id, tool) });
    await s.similarity.recordSimilarity({ projectId: "cfg-shrink", a: "x", b: "y", distance: 1 });
    await s.similarity.recordSimilarity({ projectId: "cfg-shrink", a: "x", b: "z", distance: 2 });
    const before = await generation(s, "cfg-shrink");
    await expectError(
      s.state.updateProjectConfig({
        projectId: "cfg-shrink",
        config: { maxSimilarityPairs: 1 },
        updateMask: { paths: ["max_similarity_pairs"] },
      }),
      status.FAILED_PRECONDITION,
      "SIMILARITY_CAPACITY",
      "config.max_similarity_pairs",
    );
    assert.equal(await generation(s, "cfg-shrink"), before, "a refused change changes nothing");
    await s.state.updateProjectConfig({ projectId: "cfg-shrink", config: { maxClauses: 1 }, updateMask: { paths: ["max_clauses"] } });
    const left = await s.clauses.listClauses({ projectId: "cfg-shrink" });
    assert.deepEqual(
      left.clauses.map((c) => c.id),
      ["k3"],
      "the least recently used clauses were evicted",
    );
  });

  it("a snapshot retention of 2^32-1 does not run the server out of memory, on create or on update", async () => {
    const most = 2 ** 32 - 1;
    const created = await s.state.createProject({ projectId: "cfg-ring", config: { snapshotRetentionGenerations: most } });
    assert.equal(created.config?.snapshotRetentionGenerations, most, "created with the largest retention");
    await s.state.createProject({ projectId: "cfg-ring-update" });
    const updated = await s.state.updateProjectConfig({
      projectId: "cfg-ring-update",
      config: { snapshotRetentionGenerations: most },
      updateMask: { paths: ["snapshot_retention_generations"] },
    });
    assert.equal(updated.config?.snapshotRetentionGenerations, most, "updated to the largest retention");
    for (let i = 0; i < 3; i++) await s.similarity.recordSimilarity({ projectId: "cfg-ring-update", a: "x", b: "y", distance: i });
    const oldest = await s.state.getGeneration({ projectId: "cfg-ring-update" });
    assert.deepEqual([oldest.oldestSnapshotGeneration, oldest.header?.generation], [0n, 4n], "every generation is still readable");
    await s.state.updateProjectConfig({
      projectId: "cfg-ring-update",
      config: { snapshotRetentionGenerations: 2 },
      updateMask: { paths: ["snapshot_retention_generations"] },
    });
    const cut = await s.state.getGeneration({ projectId: "cfg-ring-update" });
    assert.equal(cut.oldestSnapshotGeneration, 4n, "a lowered retention keeps only the newest generations");
  });
});

describe("UpdateProjectConfig on the durable store", () => {
  it("reads a changed configuration back after a restart, and a restored checkpoint brings the old one back", async () => {
    const first = await startTestServer({ durable: true });
    try {
      await first.state.createProject({ projectId: "cfg-durable" });
      await first.state.createCheckpoint({ projectId: "cfg-durable", checkpointId: "before" });
      await first.state.updateProjectConfig({
        projectId: "cfg-durable",
        config: { maxClauses: 12, circuitBreakerThresholds: { Read: 9 } },
        updateMask: { paths: ["max_clauses", "circuit_breaker_thresholds"] },
      });
    } finally {
      await first.stop();
    }
    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      const read = await second.state.getProjectConfig({ projectId: "cfg-durable" });
      assert.equal(read.config?.maxClauses, 12, "the change survived the restart");
      assert.deepEqual(read.config?.circuitBreakerThresholds, { Read: 9 }, "the map was replaced whole");
      assert.equal(read.header?.generation, 1n, "recovered at the change's generation");
      const fork = await second.state.forkProject({ projectId: "cfg-durable", targetProjectId: "cfg-durable-fork" });
      assert.equal(fork.header?.generation, 1n, "forked");
      assert.equal((await second.state.getProjectConfig({ projectId: "cfg-durable-fork" })).config?.maxClauses, 12, "a fork carries it");
      await second.state.restoreCheckpoint({ projectId: "cfg-durable", checkpointId: "before" });
      assert.equal(
        (await second.state.getProjectConfig({ projectId: "cfg-durable" })).config?.maxClauses,
        1000,
        "restored with the checkpoint",
      );
    } finally {
      await second.stop();
      await removeDataDir(first.dataDir);
    }
  });
});
