import { create, toBinary, toJsonString, type MessageInitShape } from "@bufbuild/protobuf";
import { ExportFormat, type ExportCountSchema } from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { ProjectStateSchema } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { invalidArgument } from "@crs/runtime";
import { referenceExport, toDocument, type Snapshot } from "@crs/domain/state";
import { INDEX_KINDS } from "./enum-mapper.js";
import { indexSizesOut, projectStateOut } from "./snapshot-mapper.js";

/** Schema version of every export document this server writes (ExportHeader.schema_version). */
export const EXPORT_SCHEMA_VERSION = "1.0";

/** History entries the reference's export holds: the most recent ones only. */
const REFERENCE_HISTORY_ENTRIES = 100;

/** The indexes the reference's export leaves out. */
const NOT_IN_REFERENCE = new Set<string>(["clause", "step", "analytics"]);

/** One exported document: its bytes and the entries it holds per index, in IndexKind order. */
export interface ExportDocument {
  /** The whole document. */
  readonly bytes: Uint8Array;
  /** Entries per index. */
  readonly counts: MessageInitShape<typeof ExportCountSchema>[];
}

const WRITTEN = new Set<ExportFormat>([
  ExportFormat.STATE_BINARY,
  ExportFormat.STATE_JSON,
  ExportFormat.REFERENCE_JSON,
  ExportFormat.DOCUMENT_JSON,
]);

/** The format asked for; INVALID_ARGUMENT naming `field` for UNSPECIFIED or a value this server does not know. */
export function requireFormat(format: ExportFormat, field: string): ExportFormat {
  if (WRITTEN.has(format)) return format;
  throw invalidArgument(
    field,
    `${format} is not an ExportFormat this server writes (STATE_BINARY, STATE_JSON, REFERENCE_JSON or DOCUMENT_JSON)`,
  );
}

/** Entries per index `format` holds of `snapshot`, in IndexKind order. */
export function exportCounts(snapshot: Snapshot, format: ExportFormat): MessageInitShape<typeof ExportCountSchema>[] {
  const byKind = new Map(indexSizesOut(snapshot).map((s) => [s.index, s.entries ?? 0n]));
  return Object.entries(INDEX_KINDS).map(([index, kind]) => {
    let entries = byKind.get(kind) ?? 0n;
    if (format === ExportFormat.REFERENCE_JSON) {
      if (NOT_IN_REFERENCE.has(index)) entries = 0n;
      else if (index === "history" && entries > BigInt(REFERENCE_HISTORY_ENTRIES)) entries = BigInt(REFERENCE_HISTORY_ENTRIES);
    }
    return { index, entries };
  });
}

/**
 * The document of `snapshot` in `format`. The reference's export is stamped with the snapshot's
 * commit time, not the time of the call, so one generation always exports to the same bytes.
 */
export function exportDocument(snapshot: Snapshot, projectId: string, format: ExportFormat): ExportDocument {
  const counts = exportCounts(snapshot, format);
  if (format === ExportFormat.REFERENCE_JSON) {
    const json = JSON.stringify(referenceExport(snapshot.state, projectId, snapshot.createdAt));
    return { bytes: new TextEncoder().encode(json), counts };
  }
  // The state document is what a checkpoint keeps: every index, the change history, the cycle
  // detectors and the step numbering, so an import of it restores the state exactly.
  if (format === ExportFormat.DOCUMENT_JSON) return { bytes: new TextEncoder().encode(JSON.stringify(toDocument(snapshot.state))), counts };
  const state = create(ProjectStateSchema, projectStateOut(snapshot));
  const bytes =
    format === ExportFormat.STATE_BINARY
      ? toBinary(ProjectStateSchema, state)
      : new TextEncoder().encode(toJsonString(ProjectStateSchema, state));
  return { bytes, counts };
}
