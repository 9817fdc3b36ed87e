import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { errorDetailOf } from "@crs/runtime";
import { ChangeKind } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import type { WatchRequest } from "@crs/contracts/gen/crs/state/v1/watch_pb";
import { client, closeAll, proofDelta } from "./persistence-test-support.js";
import { expectError, startTestServer, type TestServer } from "./test-support.js";
import {
  changed,
  importInto,
  openWatch,
  replacements,
  savedProject,
  watchClient,
  type Persistence,
  type Watch,
} from "./watch-test-support.js";

const PROGRESS_MS = 2000;

describe("a watched project whose state is replaced", () => {
  let s: TestServer;
  let persistence: Persistence;
  let watch: Watch;
  let n = 0;
  const opened = (req: Partial<WatchRequest>) => openWatch(watch, req);
  const saved = () => savedProject(s, persistence, `r${++n}`);
  before(async () => {
    s = await startTestServer();
    persistence = client(s);
    watch = watchClient(s);
  });
  after(() => closeAll([persistence, watch], [s]));

  it("ends a watch OUT_OF_RANGE / GENERATION_COMPACTED at the replacement when RestoreCheckpoint, RestoreBackup or ImportState replace its state, instead of leaving it mirroring a state that is gone", async () => {
    for (const [name, replace] of Object.entries(replacements)) {
      const p = await saved();
      // Progress messages make a watch that is not ended answer, rather than wait for ever.
      const next = await opened({ projectId: p.projectId, progressIntervalMs: PROGRESS_MS });
      // A filter that the replacement matches no kind of: the watch still learns its state is gone.
      const filtered = await opened({ projectId: p.projectId, kinds: [ChangeKind.CLAUSE_ADDED], progressIntervalMs: PROGRESS_MS });
      const applied = await s.state.apply({ projectId: p.projectId, delta: proofDelta("after-save") });
      assert.deepEqual(
        (await changed(next)).changes.map((c) => c.generation),
        [applied.header?.generation],
        `${name}: changes before it arrive`,
      );
      const replacedAt = await replace(s, persistence, p);
      assert.ok(replacedAt !== undefined && replacedAt > (applied.header?.generation ?? 0n), `${name}: the generation moves forward`);
      for (const ended of [next, filtered]) {
        const error = await expectError(ended(), status.OUT_OF_RANGE, "GENERATION_COMPACTED");
        assert.equal(
          errorDetailOf(error)?.metadata["oldest_generation"],
          String(replacedAt),
          `${name}: names the replacement's generation`,
        );
        assert.match(error.details, /replaced/, `${name}: says the state was replaced`);
      }
      const again = await opened({ projectId: p.projectId, startGeneration: replacedAt + 1n });
      const later = await s.state.apply({ projectId: p.projectId, delta: proofDelta("after-replace") });
      assert.deepEqual(
        (await again()).changes.map((c) => c.generation),
        [later.header?.generation],
        `${name}: a watch from after the replacement carries on`,
      );
    }
  });

  it("refuses a watch of a project ImportState has not created yet as NOT_FOUND, and watches the one it created like any other", async () => {
    const { document } = await saved();
    await expectError(opened({ projectId: "imported" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
    const created = await importInto(persistence, "imported", document, false);
    const next = await opened({ projectId: "imported" });
    const applied = await s.state.apply({ projectId: "imported", delta: proofDelta("new") });
    assert.equal(applied.header?.generation, (created.header?.generation ?? 0n) + 1n);
    const live = await next();
    assert.equal(live.header?.projectUid, created.header?.projectUid, "the imported project's incarnation");
    assert.deepEqual(
      live.changes.map((c) => c.generation),
      [applied.header?.generation],
    );
  });
});
