import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { credentials, status } from "@grpc/grpc-js";
import { createClient, errorDetailOf, type TypedClient } from "@crs/runtime";
import { ChangeKind } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import { ExportFormat, ImportStateRequestSchema, type PersistenceService } from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { WatchService, type WatchRequest, type WatchResponse } from "@crs/contracts/gen/crs/state/v1/watch_pb";
import { client, closeAll, proofDelta, readExport } from "./persistence-test-support.js";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

type Persistence = TypedClient<typeof PersistenceService.method>;

const PROGRESS_MS = 2000;

/** The next message with changes, past progress messages. */
async function changed(next: () => Promise<WatchResponse>): Promise<WatchResponse> {
  for (;;) {
    const m = await next();
    if (m.changes.length > 0) return m;
  }
}

/** A DOCUMENT_JSON import of `document` into `projectId`. */
function importInto(persistence: Persistence, projectId: string, document: Uint8Array, replaceExisting: boolean) {
  return persistence.importState([
    create(ImportStateRequestSchema, {
      part: { case: "header", value: { projectId, format: ExportFormat.DOCUMENT_JSON, replaceExisting } },
    }),
    create(ImportStateRequestSchema, { part: { case: "chunk", value: document } }),
  ]);
}

describe("a watched project whose state is replaced", () => {
  let s: TestServer;
  let persistence: Persistence;
  let watch: TypedClient<typeof WatchService.method>;
  let n = 0;
  const opened = async (req: Partial<WatchRequest>) => {
    const stream = watch.watch(req as WatchRequest)[Symbol.asyncIterator]();
    const first = await stream.next();
    assert.equal((first.value as WatchResponse | undefined)?.created, true, "the watch is registered");
    return async (): Promise<WatchResponse> => {
      const r = await stream.next();
      assert.ok(r.done !== true, "the stream ended");
      return r.value;
    };
  };
  /** A project with one proof, and a document, a checkpoint and a backup of that state. */
  const saved = async () => {
    const projectId = `r${++n}`;
    await s.state.createProject({ projectId });
    await s.state.apply({ projectId, delta: proofDelta("root") });
    await s.state.createCheckpoint({ projectId, checkpointId: "saved" });
    const backupId = (await persistence.createBackup({ projectId })).backup?.backupId ?? "";
    const document = (await readExport(persistence, { projectId, format: ExportFormat.DOCUMENT_JSON })).document;
    return { projectId, backupId, document };
  };
  before(async () => {
    s = await startTestServer();
    persistence = client(s);
    watch = createClient(WatchService, `127.0.0.1:${s.service.port}`, { credentials: credentials.createInsecure() });
  });
  after(() => closeAll([persistence, watch], [s]));

  it("ends a watch OUT_OF_RANGE / GENERATION_COMPACTED at the replacement when RestoreCheckpoint, RestoreBackup or ImportState replace its state, instead of leaving it mirroring a state that is gone", async () => {
    const replacements = {
      RestoreCheckpoint: async (p: Awaited<ReturnType<typeof saved>>) =>
        (await s.state.restoreCheckpoint({ projectId: p.projectId, checkpointId: "saved" })).header?.generation,
      RestoreBackup: async (p: Awaited<ReturnType<typeof saved>>) =>
        (await persistence.restoreBackup({ projectId: p.projectId, backupId: p.backupId })).header?.generation,
      ImportState: async (p: Awaited<ReturnType<typeof saved>>) =>
        (await importInto(persistence, p.projectId, p.document, true)).header?.generation,
    };
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
      const replacedAt = await replace(p);
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
