/** Test support of PersistenceService: exports read whole, filled projects, and what a replace cannot keep. */
import assert from "node:assert/strict";
import { credentials } from "@grpc/grpc-js";
import { createClient, type TypedClient } from "@crs/runtime";
import {
  PersistenceService,
  type ExportHeader,
  type ExportStateRequest,
  type ExportTrailer,
} from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import type { TestServer } from "./test-support.js";

type PartialExport = Partial<Omit<ExportStateRequest, "$typeName">>;

/** An export read to its end: the header, each chunk and the trailer, in the order they came. */
export interface ReadExport {
  readonly header: ExportHeader;
  readonly chunks: Uint8Array[];
  readonly trailer: ExportTrailer;
  readonly document: Uint8Array;
}

/** Reads a whole export, checking its message order. */
export async function readExport(client: TypedClient<typeof PersistenceService.method>, req: PartialExport): Promise<ReadExport> {
  const parts: string[] = [];
  let header: ExportHeader | undefined;
  let trailer: ExportTrailer | undefined;
  const chunks: Uint8Array[] = [];
  for await (const msg of client.exportState(req)) {
    parts.push(msg.part.case ?? "none");
    if (msg.part.case === "header") header = msg.part.value;
    else if (msg.part.case === "chunk") chunks.push(msg.part.value);
    else if (msg.part.case === "trailer") trailer = msg.part.value;
  }
  assert.equal(parts[0], "header", "the header comes first");
  assert.equal(parts.at(-1), "trailer", "the trailer comes last");
  assert.ok(
    parts.slice(1, -1).every((p) => p === "chunk"),
    `only chunks between: ${parts.join(",")}`,
  );
  assert.ok(header !== undefined && trailer !== undefined);
  return { header, chunks, trailer, document: Buffer.concat(chunks) };
}

/** A soft proof delta of one node. */
export const proofDelta = (nodeId: string) => ({
  source: SignalSource.SOFT,
  kind: { case: "proof" as const, value: { entries: [{ nodeId, value: { proof: 1n, disproof: 2n, source: SignalSource.SOFT } }] } },
});

/** A project with proofs, similarity pairs and a learned-free history across several generations. */
export async function fill(s: TestServer, projectId: string, pairs: number): Promise<void> {
  await s.state.createProject({ projectId, config: { snapshotRetentionGenerations: 3 } });
  await s.state.apply({ projectId, delta: proofDelta("root") });
  for (let i = 0; i < pairs; i++) await s.similarity.recordSimilarity({ projectId, a: `node-${i}`, b: `node-${i + 1}`, distance: i + 0.5 });
}

/** A PersistenceService client of `server`. */
export const client = (server: TestServer) =>
  createClient(PersistenceService, `127.0.0.1:${server.service.port}`, { credentials: credentials.createInsecure() });

/** Closes the clients, then stops the servers. */
export async function closeAll(clients: readonly { close(): void }[], servers: readonly TestServer[]): Promise<void> {
  for (const c of clients) c.close();
  for (const server of servers) await server.stop();
}

// What a replace cannot keep: the generation moves forward, every entry counts as modified by the
// import, the state remembers the replacement, and the delta history stays the target's own.
// Everything else must be the document's.
export function withoutReplaceMarks(bytes: Uint8Array): string {
  const doc = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  return JSON.stringify({ ...doc, generation: 0, deltaHistory: [], replacedGeneration: 0 }, (key, value: unknown) =>
    key === "modGeneration" ? 0 : value,
  );
}
