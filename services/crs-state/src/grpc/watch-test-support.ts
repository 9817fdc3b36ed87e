/** Test support of WatchService: open watches, and projects whose state a restore or import replaces. */
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { credentials } from "@grpc/grpc-js";
import { createClient, type TypedClient } from "@crs/runtime";
import { ExportFormat, ImportStateRequestSchema, type PersistenceService } from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { WatchService, type WatchRequest, type WatchResponse } from "@crs/contracts/gen/crs/state/v1/watch_pb";
import { proofDelta, readExport } from "./persistence-test-support.js";
import type { TestServer } from "./test-support.js";

/** A PersistenceService client. */
export type Persistence = TypedClient<typeof PersistenceService.method>;
/** A WatchService client. */
export type Watch = TypedClient<typeof WatchService.method>;

/** A WatchService client of `server`. */
export const watchClient = (server: TestServer): Watch =>
  createClient(WatchService, `127.0.0.1:${server.service.port}`, { credentials: credentials.createInsecure() });

/** Opens a watch and checks its created message; returns a reader of the messages after it. */
export async function openWatch(watch: Watch, req: Partial<WatchRequest>): Promise<() => Promise<WatchResponse>> {
  const stream = watch.watch(req as WatchRequest)[Symbol.asyncIterator]();
  const first = await stream.next();
  assert.equal((first.value as WatchResponse | undefined)?.created, true, "the watch is registered");
  return async () => {
    const r = await stream.next();
    assert.ok(r.done !== true, "the stream ended");
    return r.value;
  };
}

/** The next message with changes, past progress messages. */
export async function changed(next: () => Promise<WatchResponse>): Promise<WatchResponse> {
  for (;;) {
    const m = await next();
    if (m.changes.length > 0) return m;
  }
}

/** A DOCUMENT_JSON import of `document` into `projectId`. */
export function importInto(persistence: Persistence, projectId: string, document: Uint8Array, replaceExisting: boolean) {
  return persistence.importState([
    create(ImportStateRequestSchema, {
      part: { case: "header", value: { projectId, format: ExportFormat.DOCUMENT_JSON, replaceExisting } },
    }),
    create(ImportStateRequestSchema, { part: { case: "chunk", value: document } }),
  ]);
}

/** A project with one proof, and a document, a checkpoint ("saved") and a backup of that state. */
export interface SavedProject {
  readonly projectId: string;
  readonly backupId: string;
  readonly document: Uint8Array;
}

/** Creates `projectId` with one proof and saves its state three ways. */
export async function savedProject(s: TestServer, persistence: Persistence, projectId: string): Promise<SavedProject> {
  await s.state.createProject({ projectId });
  await s.state.apply({ projectId, delta: proofDelta("root") });
  await s.state.createCheckpoint({ projectId, checkpointId: "saved" });
  const backupId = (await persistence.createBackup({ projectId })).backup?.backupId ?? "";
  const document = (await readExport(persistence, { projectId, format: ExportFormat.DOCUMENT_JSON })).document;
  return { projectId, backupId, document };
}

/** Each way to replace a saved project's whole state; each answers the generation it committed. */
export const replacements: Readonly<
  Record<string, (s: TestServer, persistence: Persistence, p: SavedProject) => Promise<bigint | undefined>>
> = {
  RestoreCheckpoint: async (s, _persistence, p) =>
    (await s.state.restoreCheckpoint({ projectId: p.projectId, checkpointId: "saved" })).header?.generation,
  RestoreBackup: async (_s, persistence, p) =>
    (await persistence.restoreBackup({ projectId: p.projectId, backupId: p.backupId })).header?.generation,
  ImportState: async (_s, persistence, p) => (await importInto(persistence, p.projectId, p.document, true)).header?.generation,
};
