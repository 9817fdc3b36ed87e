/**
 * ImportState: a document received in chunks after its header, held whole (within the server's
 * import limit), checked against the size and SHA-256 its header gives, decoded, and only then
 * handed to the host, so a failed import changes nothing.
 */

import { createHash } from "node:crypto";
import {
  ExportFormat,
  ImportHeaderSchema,
  ImportStateResponseSchema,
  type ImportHeader,
  type ImportStateRequest,
} from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { invalidArgument, RuntimeRpcError } from "@crs/runtime";
import { Snapshot, StateError, type StateDocument } from "@crs/domain/state";
import { CrsStateError } from "../errors.js";
import type { HandlerDeps } from "./deps.js";
import { exportCounts } from "./export-document.js";
import { requireId } from "./ids.js";
import { renamed } from "./field-paths.js";
import { decodeAnswer, encodeAnswer, prepareRestore, withOptionPath } from "./mutations.js";
import { responseHeader } from "./reads.js";

/** The header, then every chunk's bytes; INVALID_ARGUMENT naming `header` when it is missing or repeated. */
async function receive(requests: AsyncIterable<ImportStateRequest>, maxBytes: number): Promise<{ header: ImportHeader; bytes: Buffer }> {
  let header: ImportHeader | undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const msg of requests) {
    if (header === undefined) {
      if (msg.part.case !== "header") throw invalidArgument("header", "the first message of an import must be its header");
      header = checkHeader(msg.part.value, maxBytes);
    } else if (msg.part.case === "chunk") {
      total += msg.part.value.length;
      if (total > maxBytes) throw tooLarge("chunk", maxBytes, `the document passed ${maxBytes} bytes`);
      chunks.push(msg.part.value);
    } else {
      throw invalidArgument("header", "only the first message of an import is its header; the others are chunks");
    }
  }
  if (header === undefined) throw invalidArgument("header", "an import needs its header first");
  return { header, bytes: Buffer.concat(chunks, total) };
}

function tooLarge(field: string, limit: number, detail: string): CrsStateError {
  return new CrsStateError("IMPORT_TOO_LARGE", `import: ${detail}, more than this server takes (CRS_STATE_MAX_IMPORT_BYTES=${limit})`, {
    field,
    limit: String(limit),
  });
}

// What the header asks is checked before any chunk is held.
function checkHeader(header: ImportHeader, maxBytes: number): ImportHeader {
  requireId(header.projectId, "header.project_id");
  if (header.format !== ExportFormat.DOCUMENT_JSON) {
    throw invalidArgument("header.format", `${ExportFormat[header.format] ?? header.format} is not imported; only DOCUMENT_JSON is`);
  }
  if (header.sizeBytes > BigInt(maxBytes)) throw tooLarge("header.size_bytes", maxBytes, `the document has ${header.sizeBytes} bytes`);
  if (header.sha256 !== "" && !/^[0-9a-f]{64}$/.test(header.sha256)) {
    throw invalidArgument("header.sha256", "a SHA-256 is 64 lowercase hex digits");
  }
  return header;
}

function mismatch(field: string, detail: string): CrsStateError {
  return new CrsStateError("DOCUMENT_MISMATCH", `import: ${detail}; nothing was changed`, { field });
}

function parse(bytes: Buffer): StateDocument {
  try {
    return JSON.parse(bytes.toString("utf8")) as StateDocument;
  } catch (e) {
    throw new StateError("IMPORT_INVALID", `import: the document is not JSON: ${(e as Error).message}`, { field: "chunk", cause: e });
  }
}

// An import's options sit in its header: an error about one names `header.options.*`, its place
// in the request, where the checks shared with other mutations name `options.*`.
function underHeader(field: string): string {
  return field === "options" || field.startsWith("options.") || field.startsWith("options[") ? `header.${field}` : field;
}

function withOptionsUnderHeader(e: unknown): unknown {
  if (e instanceof RuntimeRpcError || e instanceof CrsStateError) {
    const field = e.metadata["field"];
    if (field === undefined || underHeader(field) === field) return e;
    const metadata = { ...e.metadata, field: underHeader(field) };
    if (e instanceof CrsStateError) return new CrsStateError(e.code, e.detail, metadata, { cause: e });
    const message = e.message.startsWith(`${field}: `) ? `${underHeader(field)}${e.message.slice(field.length)}` : e.message;
    return new RuntimeRpcError(e.code, e.runtimeReason, message, metadata, { cause: e });
  }
  return renamed(e, underHeader);
}

/** The ImportState handler. */
export function importStateHandler({ host, maxImportBytes }: HandlerDeps) {
  return async (requests: AsyncIterable<ImportStateRequest>) => {
    const { header, bytes } = await receive(requests, maxImportBytes);
    const projectId = header.projectId;
    if (header.sizeBytes !== 0n && header.sizeBytes !== BigInt(bytes.length)) {
      throw mismatch("header.size_bytes", `the header says ${header.sizeBytes} bytes, ${bytes.length} arrived`);
    }
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    if (header.sha256 !== "" && header.sha256 !== sha256) {
      throw mismatch("header.sha256", `the header says SHA-256 ${header.sha256}, the bytes that arrived hash to ${sha256}`);
    }
    const doc = parse(bytes);
    // A retry is recognised by the document it carries, whatever size and hash its header stated.
    const request = { ...header, sizeBytes: BigInt(bytes.length), sha256 };
    try {
      // A replace rewrites every entry, as a restore does: entry preconditions are refused the same way.
      const req = prepareRestore({
        method: "ImportState",
        projectId,
        requestSchema: ImportHeaderSchema,
        request,
        responseSchema: ImportStateResponseSchema,
      });
      const outcome = await host.imports.run(projectId, doc, { ...req, replaceExisting: header.replaceExisting }, (h, imported) =>
        encodeAnswer(ImportStateResponseSchema, {
          header: responseHeader(h),
          counts: exportCounts(new Snapshot(imported, 0), ExportFormat.DOCUMENT_JSON),
          sizeBytes: BigInt(bytes.length),
        }),
      );
      return decodeAnswer(ImportStateResponseSchema, outcome);
    } catch (e) {
      // Host errors name an option as the restores' do (options.*), then under the header.
      throw withOptionsUnderHeader(withOptionPath(e));
    }
  };
}
