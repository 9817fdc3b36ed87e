import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { JournalBackend, ProjectHealth } from "@crs/contracts/gen/crs/state/v1/maintenance_pb";
import { HealthCheckResponse_ServingStatus as Serving } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./test-support.js";

describe("MaintenanceService through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ durable: true });
    for (const id of ["m-b", "m-a", "m-c"]) await s.state.createProject({ projectId: id });
  });
  after(async () => {
    await s.stop();
    await removeDataDir(s.dataDir);
  });

  it("reports the durable backend and the projects it holds", async () => {
    const st = await s.maintenance.getStatus({});
    assert.equal(st.journalBackend, JournalBackend.LEVEL);
    assert.equal(st.knownProjects, 3);
    assert.equal(st.draining, false);
  });

  it("lists projects by id in pages, with their uids", async () => {
    const p1 = await s.maintenance.listProjects({ pageSize: 2 });
    const p2 = await s.maintenance.listProjects({ pageSize: 2, pageToken: p1.nextPageToken });
    assert.deepEqual(
      [...p1.projects, ...p2.projects].map((p) => p.projectId),
      ["m-a", "m-b", "m-c"],
    );
    assert.ok(
      p1.projects.every((p) => p.projectUid !== ""),
      "uids listed",
    );
    assert.equal(p2.nextPageToken, "");
  });

  it("reports one project's storage facts and NOT_FOUND for an unknown one", async () => {
    const r = await s.maintenance.getProjectStatus({ projectId: "m-a" });
    assert.equal(r.status?.health, ProjectHealth.SERVING);
    assert.equal(r.status?.generation, 0n);
    assert.ok((r.status?.indexSizes.length ?? 0) > 0, "index sizes of a loaded project");
    await expectError(s.maintenance.getProjectStatus({ projectId: "m-zz" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
  });

  it("GetProjectStatus carries a header with the project, its uid and the generation read, not an answer without one", async () => {
    await s.similarity.recordSimilarity({ projectId: "m-b", a: "x", b: "y", distance: 1 });
    const r = await s.maintenance.getProjectStatus({ projectId: "m-b" });
    const generation = await s.state.getGeneration({ projectId: "m-b" });
    assert.deepEqual(
      [r.header?.projectId, r.header?.projectUid, r.header?.generation, r.header?.replayed],
      ["m-b", generation.header?.projectUid, 1n, false],
    );
    assert.equal(r.header?.generation, r.status?.generation, "the header names the generation the status reports");
  });

  it("lists a loaded project with the oldest snapshot it can still be read at, as GetProjectStatus reports it", async () => {
    await s.state.createProject({ projectId: "m-ring", config: { snapshotRetentionGenerations: 2 } });
    for (const b of ["y", "z", "w", "v"]) await s.similarity.recordSimilarity({ projectId: "m-ring", a: "x", b, distance: 1 });
    const status = await s.maintenance.getProjectStatus({ projectId: "m-ring" });
    const row = (await s.maintenance.listProjects({ openOnly: true })).projects.find((p) => p.projectId === "m-ring");
    assert.ok((status.status?.oldestSnapshotGeneration ?? 0n) > 0n, "older generations have left the ring");
    assert.equal(row?.oldestSnapshotGeneration, status.status?.oldestSnapshotGeneration);
  });

  it("reports store-backed services SERVING, PersistenceService included now that its backups are served", async () => {
    assert.equal((await s.health.check({ service: "crs.state.v1.StateService" })).status, Serving.SERVING);
    assert.equal((await s.health.check({ service: "crs.state.v1.CycleService" })).status, Serving.SERVING);
    assert.equal((await s.health.check({ service: "crs.state.v1.WatchService" })).status, Serving.SERVING);
    assert.equal((await s.health.check({ service: "crs.state.v1.PersistenceService" })).status, Serving.SERVING);
  });
});

describe("MaintenanceService after a restart", () => {
  it("lists an unloaded project with its committed generation and last change, without loading it", async () => {
    const first = await startTestServer({ durable: true });
    try {
      await first.state.createProject({ projectId: "m-restart" });
      for (const [a, b] of [
        ["x", "y"],
        ["x", "z"],
      ] as const)
        await first.similarity.recordSimilarity({ projectId: "m-restart", a, b, distance: 1 });
    } finally {
      await first.stop();
    }
    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      const [row] = (await second.maintenance.listProjects({})).projects;
      assert.equal(row?.generation, 2n, "the committed generation, not 0");
      assert.ok((row?.lastChangeAtUnixMs ?? 0n) > 0n, "the time of the last change");
      assert.equal(row?.health, ProjectHealth.CLOSED, "still not loaded");
      assert.equal((await second.maintenance.getStatus({})).openProjects, 0, "listing loaded nothing");
      await second.state.getGeneration({ projectId: "m-restart" });
      const [loaded] = (await second.maintenance.listProjects({})).projects;
      assert.deepEqual(
        [loaded?.health, loaded?.generation, loaded?.journalTailRecords],
        [ProjectHealth.SERVING, 2n, 2n],
        "a loaded project's row adds its journal facts",
      );
    } finally {
      await second.stop();
      await removeDataDir(first.dataDir);
    }
  });
});
