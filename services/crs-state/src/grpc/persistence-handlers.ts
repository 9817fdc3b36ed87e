import { createHash } from "node:crypto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ExportStateResponseSchema, PersistenceService } from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import type { ServiceHandlers } from "@crs/runtime";
import { backupHandlers } from "./backup-handlers.js";
import type { HandlerDeps } from "./deps.js";
import { EXPORT_SCHEMA_VERSION, exportDocument, requireFormat } from "./export-document.js";
import { requireId } from "./ids.js";
import { importStateHandler } from "./import-state.js";
import { readAt } from "./reads.js";

const MiB = 1024 * 1024;
/** Chunk size when the request asks for none. */
export const DEFAULT_EXPORT_CHUNK_BYTES = MiB;
/** Largest chunk an export sends, whatever the request asks. */
export const MAX_EXPORT_CHUNK_BYTES = 4 * MiB;
// A chunk message is its bytes plus the field's tag and length (at most 1 + 5 bytes).
const CHUNK_FRAMING_BYTES = 8;

/** The chunk size served: the requested one (0: the default), capped so no message passes the server's limit. */
export function exportChunkBytes(requested: number, maxMessageBytes: number): number {
  const wanted = requested === 0 ? DEFAULT_EXPORT_CHUNK_BYTES : requested;
  return Math.max(1, Math.min(wanted, MAX_EXPORT_CHUNK_BYTES, maxMessageBytes - CHUNK_FRAMING_BYTES));
}

type ExportOut = MessageInitShape<typeof ExportStateResponseSchema>;

/** PersistenceService: the backup methods (backup-handlers.ts), ExportState and ImportState. */
export function persistenceHandlers(deps: HandlerDeps): ServiceHandlers<typeof PersistenceService.method> {
  const { host, maxMessageBytes } = deps;
  return {
    ...backupHandlers(deps),
    importState: importStateHandler(deps),
    async *exportState(req, ctx): AsyncIterable<ExportOut> {
      const projectId = requireId(req.projectId, "project_id");
      const format = requireFormat(req.format, "format");
      const chunkBytes = exportChunkBytes(req.chunkSize, maxMessageBytes);
      // The document is built from one snapshot inside the read, then streamed from memory.
      const { header, doc } = await readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => ({
        header,
        doc: exportDocument(snapshot, projectId, format),
      }));
      yield { part: { case: "header", value: { header, format, schemaVersion: EXPORT_SCHEMA_VERSION, counts: doc.counts } } };
      for (let at = 0; at < doc.bytes.length; at += chunkBytes) {
        if (ctx.signal.aborted) return;
        yield { part: { case: "chunk", value: doc.bytes.subarray(at, at + chunkBytes) } };
      }
      const sha256 = createHash("sha256").update(doc.bytes).digest("hex");
      yield { part: { case: "trailer", value: { sizeBytes: BigInt(doc.bytes.length), sha256 } } };
    },
  };
}
