import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { ClassicLevel } from "classic-level";
import { ProjectHealth } from "@crs/contracts/gen/crs/state/v1/maintenance_pb";
import { keys } from "../store/level/level-keys.js";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./test-support.js";

const IDS = ["l-1", "l-2", "l-3", "l-4", "l-5", "l-6", "l-7"];

/** Flips one bit of a stored journal record, the way a bad sector would. */
async function damageJournalRecord(dataDir: string, projectUid: string, seq: number): Promise<void> {
  const db = new ClassicLevel<string, Uint8Array>(dataDir, { keyEncoding: "utf8", valueEncoding: "view" });
  try {
    const key = keys.journal(projectUid, seq);
    const bytes = (await db.get(key))?.slice();
    assert.ok(bytes !== undefined, `${key} exists`);
    const at = Math.min(40, bytes.length - 1);
    bytes[at] = (bytes[at] ?? 0) ^ 0x04;
    await db.put(key, bytes);
  } finally {
    await db.close();
  }
}

describe("ListProjects open_only and row health", () => {
  let s: TestServer;
  let dataDir = "";
  before(async () => {
    const first = await startTestServer({ durable: true });
    dataDir = first.dataDir;
    const uids = new Map<string, string>();
    try {
      for (const id of IDS) {
        const r = await first.state.createProject({ projectId: id });
        uids.set(id, r.header?.projectUid ?? "");
        for (const [a, b] of [
          ["x", "y"],
          ["x", "z"],
          ["y", "z"],
        ] as const)
          await first.similarity.recordSimilarity({ projectId: id, a, b, distance: 1 });
      }
    } finally {
      await first.stop();
    }
    await damageJournalRecord(dataDir, uids.get("l-4") ?? "", 2);
    s = await startTestServer({ dataDir });
    // Loaded: l-2 and l-6; l-4 fails recovery and is held as corrupted; the rest stay closed.
    await s.state.getGeneration({ projectId: "l-2" });
    await s.state.getGeneration({ projectId: "l-6" });
    await expectError(
      s.maintenance.getProjectStatus({ projectId: "l-1" }).then(() => s.state.getGeneration({ projectId: "l-4" })),
      status.DATA_LOSS,
      "PROJECT_CORRUPTED",
    );
  });
  after(async () => {
    await s.stop();
    await removeDataDir(dataDir);
  });

  it("fills each open_only page with loaded projects, and ends the token with the last one", async () => {
    const seen: string[][] = [];
    let pageToken = "";
    do {
      const page = await s.maintenance.listProjects({ pageSize: 1, pageToken, openOnly: true });
      seen.push(page.projects.map((p) => p.projectId));
      pageToken = page.nextPageToken;
    } while (pageToken !== "" && seen.length < 20);
    const loaded = ["l-1", "l-2", "l-6"];
    assert.deepEqual(
      seen,
      loaded.map((id) => [id]),
      "one loaded project per page, no empty page, no trailing token",
    );
    const all = await s.maintenance.listProjects({ openOnly: true });
    assert.deepEqual(
      all.projects.map((p) => p.projectId),
      loaded,
    );
    assert.equal(all.nextPageToken, "", "no token when nothing more matches");
    assert.ok(
      all.projects.every((p) => p.health === ProjectHealth.SERVING),
      "loaded rows are serving",
    );
  });

  it("lists a project held in DATA_LOSS as CORRUPTED, as GetProjectStatus does", async () => {
    const rows = (await s.maintenance.listProjects({})).projects;
    const health = Object.fromEntries(rows.map((p) => [p.projectId, ProjectHealth[p.health]]));
    assert.deepEqual(health, {
      "l-1": "SERVING",
      "l-2": "SERVING",
      "l-3": "CLOSED",
      "l-4": "CORRUPTED",
      "l-5": "CLOSED",
      "l-6": "SERVING",
      "l-7": "CLOSED",
    });
    const status4 = await s.maintenance.getProjectStatus({ projectId: "l-4" });
    assert.equal(status4.status?.health, ProjectHealth.CORRUPTED);
    const row4 = rows.find((p) => p.projectId === "l-4");
    assert.deepEqual(
      [status4.status?.generation, status4.status?.projectUid],
      [row4?.generation, row4?.projectUid],
      "the generation and uid the listing shows",
    );
    assert.equal(row4?.generation, 3n, "the newest record is intact and names generation 3");
  });

  it("refuses a page token with another open_only filter, or a malformed one, as INVALID_PAGE_TOKEN", async () => {
    const open = await s.maintenance.listProjects({ pageSize: 1, openOnly: true });
    const every = await s.maintenance.listProjects({ pageSize: 1 });
    assert.notEqual(open.nextPageToken, "");
    assert.notEqual(every.nextPageToken, "");
    await expectError(
      s.maintenance.listProjects({ pageSize: 1, pageToken: open.nextPageToken }),
      status.INVALID_ARGUMENT,
      "INVALID_PAGE_TOKEN",
      "page_token",
    );
    await expectError(
      s.maintenance.listProjects({ pageSize: 1, pageToken: every.nextPageToken, openOnly: true }),
      status.INVALID_ARGUMENT,
      "INVALID_PAGE_TOKEN",
      "page_token",
    );
    await expectError(s.maintenance.listProjects({ pageToken: "garbage" }), status.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN", "page_token");
  });
});

describe("GetProjectStatus after skip-corrupted recovery", () => {
  it("counts the corrupted records the recovery cut", async () => {
    const first = await startTestServer({ durable: true });
    let uid = "";
    try {
      uid = (await first.state.createProject({ projectId: "skip" })).header?.projectUid ?? "";
      for (const b of ["y", "z", "w", "v"]) await first.similarity.recordSimilarity({ projectId: "skip", a: "x", b, distance: 1 });
    } finally {
      await first.stop();
    }
    await damageJournalRecord(first.dataDir, uid, 2);
    const s = await startTestServer({ dataDir: first.dataDir, env: { CRS_STATE_SKIP_CORRUPTED: "true" } });
    try {
      const r = await s.maintenance.getProjectStatus({ projectId: "skip" });
      assert.deepEqual(
        [r.status?.health, r.status?.generation, r.status?.corruptedRecordsSkipped],
        [ProjectHealth.SERVING, 1n, 3n],
        "records 2 to 4 cut, generation 1 kept",
      );
    } finally {
      await s.stop();
      await removeDataDir(first.dataDir);
    }
  });
});
