import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { client, closeAll, proofDelta } from "./persistence-test-support.js";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./test-support.js";
import { openWatch, replacements, savedProject, watchClient } from "./watch-test-support.js";

/** Generations of one replaced project: a change before the replacement, the replacement, a change after. */
interface Replaced {
  readonly projectId: string;
  readonly name: string;
  readonly before: bigint;
  readonly replacedAt: bigint;
  readonly after: bigint;
}

/** A project per kind of replacement, each with a change before it and one after it. */
async function replaceEach(s: TestServer): Promise<Replaced[]> {
  const persistence = client(s);
  const out: Replaced[] = [];
  try {
    for (const [name, replace] of Object.entries(replacements)) {
      const p = await savedProject(s, persistence, `resume-${name.toLowerCase()}`);
      const before = (await s.state.apply({ projectId: p.projectId, delta: proofDelta("before") })).header?.generation ?? 0n;
      const fresh = (await s.maintenance.getProjectStatus({ projectId: p.projectId })).status;
      assert.equal(fresh?.replacedGeneration, 0n, `${name}: a project never replaced says 0`);
      const replacedAt = (await replace(s, persistence, p)) ?? 0n;
      const after = (await s.state.apply({ projectId: p.projectId, delta: proofDelta("after") })).header?.generation ?? 0n;
      assert.ok(before < replacedAt && replacedAt < after, `${name}: generations ${before} < ${replacedAt} < ${after}`);
      out.push({ projectId: p.projectId, name, before, replacedAt, after });
    }
  } finally {
    persistence.close();
  }
  return out;
}

/**
 * A watch from a start at or before the replacement is refused as a live one is ended, naming the
 * replacement's generation; a watch from the generation after it streams the changes since.
 */
async function checkResumes(s: TestServer, projects: readonly Replaced[], when: string): Promise<void> {
  const watch = watchClient(s);
  try {
    for (const p of projects) {
      for (const start of [1n, p.before, p.replacedAt]) {
        const error = await expectError(
          openWatch(watch, { projectId: p.projectId, startGeneration: start }),
          status.OUT_OF_RANGE,
          "GENERATION_COMPACTED",
        );
        assert.equal(errorDetailOf(error)?.metadata["oldest_generation"], String(p.replacedAt), `${p.name} ${when}: from ${start}`);
        assert.match(error.details, /replaced/, `${p.name} ${when}: says the state was replaced`);
      }
      const projectStatus = (await s.maintenance.getProjectStatus({ projectId: p.projectId })).status;
      assert.equal(projectStatus?.replacedGeneration, p.replacedAt, `${p.name} ${when}: GetProjectStatus names the replacement`);
      const next = await openWatch(watch, { projectId: p.projectId, startGeneration: p.replacedAt + 1n });
      assert.deepEqual(
        (await next()).changes.map((c) => c.generation),
        [p.after],
        `${p.name} ${when}: a watch from after the replacement catches up`,
      );
    }
  } finally {
    watch.close();
  }
}

describe("a watch resumed across a replaced state", () => {
  it("refuses a watch started at or before a RestoreCheckpoint, RestoreBackup or ImportState with GENERATION_COMPACTED at the replacement, instead of streaming changes that no longer lead to the state", async () => {
    const s = await startTestServer();
    try {
      await checkResumes(s, await replaceEach(s), "in memory");
    } finally {
      await closeAll([], [s]);
    }
  });

  // Without snapshots a restart replays the journal; with one after every record it loads the
  // state document the replacement left.
  for (const [how, env] of [
    ["journal replay", {}],
    ["a state snapshot", { CRS_STATE_SNAPSHOT_EVERY_RECORDS: "1" }],
  ] as const) {
    it(`still refuses a watch from before a replacement after a restart recovers the project from ${how}, and streams one from after it`, async () => {
      let s = await startTestServer({ durable: true, env });
      const { dataDir } = s;
      try {
        const projects = await replaceEach(s);
        await checkResumes(s, projects, "before the restart");
        await s.stop();
        s = await startTestServer({ dataDir, env });
        await checkResumes(s, projects, `after a restart from ${how}`);
      } finally {
        await s.stop();
        await removeDataDir(dataDir);
      }
    });
  }
});
