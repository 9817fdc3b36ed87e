import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { create, fromBinary, fromJsonString, toJson, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import { status } from "@grpc/grpc-js";
import { errorDetailOf, type TypedClient } from "@crs/runtime";
import {
  ExportFormat,
  type ImportHeaderSchema,
  ImportStateRequestSchema,
  type PersistenceService,
  type ImportStateRequest,
} from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { EntryIndex } from "@crs/contracts/gen/crs/state/v1/common_pb";
import { IndexKind, ProjectStateSchema } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { DEFAULT_STATE_CONFIG, fromDocument, toDocument, type StateDocument } from "@crs/domain/state";
import { exportChunkBytes, MAX_EXPORT_CHUNK_BYTES } from "./persistence-handlers.js";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./test-support.js";
import { client, closeAll, fill, readExport, withoutReplaceMarks, type ReadExport } from "./persistence-test-support.js";

function snapshotJson(state: MessageShape<typeof ProjectStateSchema> | undefined): unknown {
  assert.ok(state !== undefined, "the snapshot carries its state");
  return toJson(ProjectStateSchema, state);
}

describe("PersistenceService.ExportState through gRPC", () => {
  let s: TestServer;
  let small: TestServer;
  let persistence: TypedClient<typeof PersistenceService.method>;
  let smallPersistence: TypedClient<typeof PersistenceService.method>;
  before(async () => {
    s = await startTestServer();
    // A message limit far under the chunk a client may ask for.
    small = await startTestServer({ env: { GRPC_MAX_MESSAGE_BYTES: "2048" } });
    persistence = client(s);
    smallPersistence = client(small);
    await fill(s, "p", 8);
    await fill(small, "p", 60);
  });
  after(() => closeAll([persistence, smallPersistence], [s, small]));

  it("exports STATE_BINARY and STATE_JSON documents that decode to the state GetSnapshot reads, with a trailer whose size and sha256 match the bytes sent", async () => {
    const snapshot = await s.state.getSnapshot({ projectId: "p", includeState: true });
    const expected = snapshotJson(snapshot.state);
    for (const format of [ExportFormat.STATE_BINARY, ExportFormat.STATE_JSON]) {
      const got = await readExport(persistence, { projectId: "p", format });
      const decoded =
        format === ExportFormat.STATE_BINARY
          ? fromBinary(ProjectStateSchema, got.document)
          : fromJsonString(ProjectStateSchema, new TextDecoder().decode(got.document));
      assert.deepEqual(toJson(ProjectStateSchema, decoded), expected, `${ExportFormat[format]} holds the state`);
      assert.equal(got.trailer.sizeBytes, BigInt(got.document.length), "size_bytes");
      assert.equal(got.trailer.sha256, createHash("sha256").update(got.document).digest("hex"), "sha256, lowercase hex");
      assert.equal(got.header.format, format);
      assert.equal(got.header.schemaVersion, "1.0");
      assert.deepEqual(got.header.header?.generation, snapshot.header?.generation, "the generation exported");
      const counts = Object.fromEntries(got.header.counts.map((c) => [c.index, c.entries]));
      const kinds = Object.keys(counts).map((name) => IndexKind[name.toUpperCase() as keyof typeof IndexKind]);
      assert.deepEqual(
        kinds,
        [...kinds].sort((x, y) => x - y),
        "in IndexKind order",
      );
      assert.ok(
        kinds.every((k) => typeof k === "number" && k > 0),
        "each index named as its IndexKind",
      );
      assert.equal(new Set(kinds).size, 9, "every index");
      assert.equal(counts["proof"], 1n);
      assert.equal(counts["similarity"], 8n);
    }
  });

  it("exports the same generation to the same bytes, so a document's sha256 names its state", async () => {
    for (const format of [ExportFormat.STATE_BINARY, ExportFormat.STATE_JSON, ExportFormat.REFERENCE_JSON, ExportFormat.DOCUMENT_JSON]) {
      const [a, b] = [await readExport(persistence, { projectId: "p", format }), await readExport(persistence, { projectId: "p", format })];
      assert.equal(a.trailer.sha256, b.trailer.sha256, ExportFormat[format]);
    }
  });

  it("exports REFERENCE_JSON as the reference's CRSExport: snake_case indexes and summary, without clauses, steps or analytics", async () => {
    const got = await readExport(persistence, { projectId: "p", format: ExportFormat.REFERENCE_JSON });
    const doc = JSON.parse(new TextDecoder().decode(got.document)) as {
      session_id: string;
      generation: number;
      indexes: Record<string, Record<string, unknown>>;
      summary: { nodes_explored: number };
    };
    assert.equal(doc.session_id, "p");
    assert.equal(doc.generation, 9);
    assert.deepEqual(Object.keys(doc.indexes), ["proof", "constraint", "similarity", "dependency", "history", "streaming"]);
    const [entry, ...more] = (doc.indexes["proof"]?.["entries"] ?? []) as Record<string, unknown>[];
    assert.equal(more.length, 0, "one proof entry");
    assert.deepEqual(
      { ...entry, updated_at: "" },
      { node_id: "root", proof: "1", disproof: "2", status: "unknown", source: "soft", updated_at: "" },
    );
    assert.match(String(entry?.["updated_at"]), /^\d{4}-\d\d-\d\dT/, "RFC 3339 time");
    assert.equal(doc.indexes["similarity"]?.["pair_count"], 8);
    assert.equal(doc.summary.nodes_explored, 1);
    const counts = Object.fromEntries(got.header.counts.map((c) => [c.index, c.entries]));
    assert.deepEqual(
      [counts["clause"], counts["step"], counts["analytics"]],
      [0n, 0n, 0n],
      "what the reference leaves out is counted as not exported",
    );
  });

  it("exports DOCUMENT_JSON as the full state document, change history included, which STATE_JSON leaves out", async () => {
    const got = await readExport(persistence, { projectId: "p", format: ExportFormat.DOCUMENT_JSON });
    const doc = JSON.parse(new TextDecoder().decode(got.document)) as StateDocument;
    assert.equal(BigInt(doc.generation), got.header.header?.generation, "the generation exported");
    assert.equal(doc.deltaHistory.length, 1, "the change record of the one apply");
    assert.equal(doc.similarity.length, 8);
    assert.deepEqual(
      toDocument(fromDocument(doc, DEFAULT_STATE_CONFIG)),
      doc,
      "the document decodes back to the state it was written from",
    );
    assert.equal(got.trailer.sha256, createHash("sha256").update(got.document).digest("hex"));
    assert.equal(got.header.format, ExportFormat.DOCUMENT_JSON);
  });

  it("exports at an old generation the state GetSnapshot reads there, and refuses a generation no longer held as GetSnapshot does", async () => {
    const old = await readExport(persistence, { projectId: "p", format: ExportFormat.STATE_BINARY, atGeneration: 8n });
    const snapshot = await s.state.getSnapshot({ projectId: "p", atGeneration: 8n, includeState: true });
    assert.equal(old.header.header?.generation, 8n, "the header names the generation exported");
    assert.deepEqual(toJson(ProjectStateSchema, fromBinary(ProjectStateSchema, old.document)), snapshotJson(snapshot.state));
    assert.equal(old.header.counts.find((c) => c.index === "similarity")?.entries, 7n, "counts are the old generation's");
    for (const atGeneration of [1n, 99n]) {
      const read = await expectError(
        s.state.getSnapshot({ projectId: "p", atGeneration }),
        status.OUT_OF_RANGE,
        atGeneration === 1n ? "GENERATION_COMPACTED" : "GENERATION_IN_FUTURE",
        "at_generation",
      );
      const exported = await expectError(
        readExport(persistence, { projectId: "p", format: ExportFormat.STATE_JSON, atGeneration }),
        read.code,
        errorDetailOf(read)?.reason ?? "",
        "at_generation",
      );
      assert.deepEqual(errorDetailOf(exported)?.metadata, errorDetailOf(read)?.metadata, `metadata at ${atGeneration}`);
    }
  });

  it("never sends a chunk over 4 MiB or over the server's message limit, whatever chunk_size asks", async () => {
    assert.equal(exportChunkBytes(0, 16 << 20), 1 << 20, "0 means 1 MiB");
    assert.equal(exportChunkBytes(0xffffffff, 64 << 20), MAX_EXPORT_CHUNK_BYTES, "capped at 4 MiB");
    const limit = 2048;
    for (const chunkSize of [0, 0xffffffff, 100]) {
      const got = await readExport(smallPersistence, { projectId: "p", format: ExportFormat.STATE_JSON, chunkSize });
      assert.ok(got.chunks.length > 1, `a document of ${got.document.length} bytes comes in several chunks`);
      const served = chunkSize === 100 ? 100 : exportChunkBytes(chunkSize, limit);
      assert.ok(served < limit);
      got.chunks.forEach((c, i) => {
        if (i < got.chunks.length - 1) assert.equal(c.length, served, `chunk ${i} is full`);
        else assert.ok(c.length > 0 && c.length <= served, "the last chunk holds the rest");
      });
      assert.equal(got.trailer.sizeBytes, BigInt(got.document.length));
    }
  });

  it("refuses an unspecified format as INVALID_ARGUMENT naming format, and an absent project as PROJECT_NOT_FOUND", async () => {
    await expectError(readExport(persistence, { projectId: "p" }), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "format");
    await expectError(
      readExport(persistence, { projectId: "p", format: 42 as ExportFormat }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "format",
    );
    await expectError(
      readExport(persistence, { projectId: "absent", format: ExportFormat.STATE_JSON }),
      status.NOT_FOUND,
      "PROJECT_NOT_FOUND",
      "project_id",
    );
    await expectError(
      readExport(persistence, { projectId: "", format: ExportFormat.STATE_JSON }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "project_id",
    );
  });
});

type ImportHeaderInit = MessageInitShape<typeof ImportHeaderSchema>;

/** An import of `document` in chunks of `chunkBytes` after `header`. */
function importOf(
  client: TypedClient<typeof PersistenceService.method>,
  header: ImportHeaderInit,
  document: Uint8Array,
  chunkBytes = 1000,
) {
  const messages: ImportStateRequest[] = [create(ImportStateRequestSchema, { part: { case: "header", value: header } })];
  for (let at = 0; at < document.length; at += chunkBytes) {
    messages.push(create(ImportStateRequestSchema, { part: { case: "chunk", value: document.subarray(at, at + chunkBytes) } }));
  }
  return client.importState(messages);
}

const sha256Of = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

describe("PersistenceService.ImportState through gRPC", () => {
  let s: TestServer;
  let tiny: TestServer;
  let persistence: TypedClient<typeof PersistenceService.method>;
  let tinyPersistence: TypedClient<typeof PersistenceService.method>;
  let source: ReadExport;
  const documentOf = async (projectId: string) =>
    (await readExport(persistence, { projectId, format: ExportFormat.DOCUMENT_JSON })).document;
  before(async () => {
    s = await startTestServer();
    tiny = await startTestServer({ env: { CRS_STATE_MAX_IMPORT_BYTES: "1024" } });
    persistence = client(s);
    tinyPersistence = client(tiny);
    await fill(s, "src", 8);
    await s.steps.recordStep({
      projectId: "src",
      step: { sessionId: "sess", actor: "main_agent", decision: "execute_tool", tool: "Edit", outcome: "success" },
    });
    await fill(s, "other", 2);
    source = await readExport(persistence, { projectId: "src", format: ExportFormat.DOCUMENT_JSON });
  });
  after(() => closeAll([persistence, tinyPersistence], [s, tiny]));

  it("imports a DOCUMENT_JSON export into a new project that then exports to the same bytes, generation included", async () => {
    const doc = source.document;
    const got = await importOf(
      persistence,
      { projectId: "copy", format: ExportFormat.DOCUMENT_JSON, sizeBytes: BigInt(doc.length), sha256: sha256Of(doc) },
      doc,
    );
    assert.equal(got.header?.generation, source.header.header?.generation, "the document's generation");
    assert.equal(got.sizeBytes, BigInt(doc.length));
    assert.deepEqual(got.counts, source.header.counts, "the counts the export announced");
    assert.deepEqual(await documentOf("copy"), doc, "the same state, byte for byte");
  });

  it("replaces an existing project with the document's state, keeping only its own delta history, and replays a retried request id", async () => {
    const before = await s.state.getGeneration({ projectId: "other" });
    const header = { projectId: "other", format: ExportFormat.DOCUMENT_JSON, replaceExisting: true, options: { requestId: "import-1" } };
    const got = await importOf(persistence, header, source.document);
    assert.equal(got.header?.generation, before.header!.generation + 1n, "a replace moves the generation forward, never back");
    const replaced = await documentOf("other");
    assert.equal(withoutReplaceMarks(replaced), withoutReplaceMarks(source.document), "every index, step and detector is the document's");
    const again = await importOf(persistence, header, source.document);
    assert.equal(again.header?.replayed, true, "the retry is answered as the first import was");
    assert.equal(again.header?.generation, got.header?.generation);
    assert.deepEqual(await documentOf("other"), replaced, "and changes nothing");
  });

  it("refuses a tampered chunk by its sha256 before anything changes", async () => {
    const tampered = Uint8Array.from(source.document);
    tampered[10] = (tampered[10] ?? 0) ^ 1;
    const before = await documentOf("src");
    for (const [projectId, replaceExisting] of [
      ["src", true],
      ["fresh", false],
    ] as const) {
      await expectError(
        importOf(
          persistence,
          { projectId, format: ExportFormat.DOCUMENT_JSON, replaceExisting, sha256: sha256Of(source.document) },
          tampered,
        ),
        status.DATA_LOSS,
        "BACKUP_CORRUPTED",
        "header.sha256",
      );
    }
    assert.deepEqual(await documentOf("src"), before, "the existing project is unchanged");
    await expectError(s.state.getGeneration({ projectId: "fresh" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
  });

  it("accepts entry preconditions on an import it then ignores: refuses them as RestoreCheckpoint and RestoreBackup do, changing nothing", async () => {
    const stale = { index: EntryIndex.PROOF, key: "root", modGeneration: 1n };
    const backup = (await persistence.createBackup({ projectId: "src" })).backup;
    await s.state.createCheckpoint({ projectId: "src", checkpointId: "entries" });
    const before = await documentOf("src");
    const refusals = [
      () =>
        importOf(
          persistence,
          { projectId: "src", format: ExportFormat.DOCUMENT_JSON, replaceExisting: true, options: { expectedEntries: [stale] } },
          source.document,
        ),
      () =>
        importOf(
          persistence,
          { projectId: "entries", format: ExportFormat.DOCUMENT_JSON, options: { expectedEntries: [stale] } },
          source.document,
        ),
      () => persistence.restoreBackup({ projectId: "src", backupId: backup?.backupId ?? "", options: { expectedEntries: [stale] } }),
      () => s.state.restoreCheckpoint({ projectId: "src", checkpointId: "entries", options: { expectedEntries: [stale] } }),
    ];
    // An import's options sit in its header, a restore's in the request itself.
    const fields = [
      "header.options.expected_entries",
      "header.options.expected_entries",
      "options.expected_entries",
      "options.expected_entries",
    ];
    for (const [i, refused] of refusals.entries()) await expectError(refused(), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", fields[i]);
    assert.deepEqual(await documentOf("src"), before, "the existing project is unchanged");
    await expectError(s.state.getGeneration({ projectId: "entries" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
  });

  it("named an import's bad option options.*, a field its request does not have: names header.options.*, changing nothing", async () => {
    const before = await documentOf("src");
    const replace = { projectId: "src", format: ExportFormat.DOCUMENT_JSON, replaceExisting: true };
    const cases: [ImportHeaderInit["options"], string][] = [
      [{ requestId: "x".repeat(300) }, "header.options.request_id"],
      [{ expectedGeneration: 2n ** 60n }, "header.options.expected_generation"],
      [
        { expectedEntries: [{ index: EntryIndex.UNSPECIFIED, key: "root", modGeneration: 0n }] },
        "header.options.expected_entries[0].index",
      ],
    ];
    for (const [options, field] of cases) {
      const e = await expectError(
        importOf(persistence, { ...replace, options }, source.document),
        status.INVALID_ARGUMENT,
        "INVALID_ARGUMENT",
        field,
      );
      assert.ok(e.details.includes(`${field}: `), `the message names the same path: ${e.details}`);
    }
    const current = (await s.state.getGeneration({ projectId: "src" })).header?.generation ?? 0n;
    await expectError(
      importOf(persistence, { ...replace, options: { expectedGeneration: current + 5n } }, source.document),
      status.ABORTED,
      "GENERATION_MISMATCH",
      "header.options.expected_generation",
    );
    assert.deepEqual(await documentOf("src"), before, "the project is unchanged");
  });

  it("refuses a document whose size is not the header's size_bytes", async () => {
    const doc = source.document;
    await expectError(
      importOf(persistence, { projectId: "sized", format: ExportFormat.DOCUMENT_JSON, sizeBytes: BigInt(doc.length + 1) }, doc),
      status.DATA_LOSS,
      "BACKUP_CORRUPTED",
      "header.size_bytes",
    );
    await expectError(s.state.getGeneration({ projectId: "sized" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
  });

  it("refuses a stream that does not start with its header, or repeats it, as INVALID_ARGUMENT naming header", async () => {
    const chunk = create(ImportStateRequestSchema, { part: { case: "chunk", value: source.document } });
    const header = create(ImportStateRequestSchema, {
      part: { case: "header", value: { projectId: "h", format: ExportFormat.DOCUMENT_JSON } },
    });
    for (const messages of [[chunk], [], [header, chunk, header]]) {
      await expectError(persistence.importState(messages), status.INVALID_ARGUMENT, "INVALID_ARGUMENT", "header");
    }
    await expectError(s.state.getGeneration({ projectId: "h" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
  });

  it("refuses a document over CRS_STATE_MAX_IMPORT_BYTES, declared or streamed, as RESOURCE_EXHAUSTED / LIMIT_EXCEEDED", async () => {
    const doc = source.document;
    assert.ok(doc.length > 1024);
    const declared = await expectError(
      importOf(tinyPersistence, { projectId: "big", format: ExportFormat.DOCUMENT_JSON, sizeBytes: BigInt(doc.length) }, doc),
      status.RESOURCE_EXHAUSTED,
      "LIMIT_EXCEEDED",
      "header.size_bytes",
    );
    assert.equal(errorDetailOf(declared)?.metadata["limit"], "1024");
    await expectError(
      importOf(tinyPersistence, { projectId: "big", format: ExportFormat.DOCUMENT_JSON }, doc, 300),
      status.RESOURCE_EXHAUSTED,
      "LIMIT_EXCEEDED",
      "chunk",
    );
    await expectError(tiny.state.getGeneration({ projectId: "big" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
  });

  it("refuses to import into an existing project unless replace_existing is set, changing nothing", async () => {
    const before = await documentOf("src");
    await expectError(
      importOf(persistence, { projectId: "src", format: ExportFormat.DOCUMENT_JSON }, source.document),
      status.ALREADY_EXISTS,
      "PROJECT_ALREADY_EXISTS",
      "header.replace_existing",
    );
    assert.deepEqual(await documentOf("src"), before);
  });

  it("refuses a format it cannot import as INVALID_ARGUMENT naming header.format, and a document that does not decode as IMPORT_INVALID", async () => {
    for (const format of [ExportFormat.STATE_JSON, ExportFormat.STATE_BINARY, ExportFormat.REFERENCE_JSON, ExportFormat.UNSPECIFIED]) {
      await expectError(
        importOf(persistence, { projectId: "f", format }, source.document),
        status.INVALID_ARGUMENT,
        "INVALID_ARGUMENT",
        "header.format",
      );
    }
    for (const text of ["not json", JSON.stringify({ formatVersion: 2, generation: "x" })]) {
      await expectError(
        importOf(persistence, { projectId: "f", format: ExportFormat.DOCUMENT_JSON }, new TextEncoder().encode(text)),
        status.INVALID_ARGUMENT,
        "IMPORT_INVALID",
      );
    }
    await expectError(s.state.getGeneration({ projectId: "f" }), status.NOT_FOUND, "PROJECT_NOT_FOUND");
  });

  it("keeps an imported project and an import-replaced one across a restart, as they were acknowledged", async () => {
    let durable = await startTestServer({ durable: true });
    const { dataDir } = durable;
    try {
      let imports = client(durable);
      await fill(durable, "other", 2);
      const exported = async (projectId: string) => (await readExport(imports, { projectId, format: ExportFormat.DOCUMENT_JSON })).document;
      await importOf(imports, { projectId: "copy", format: ExportFormat.DOCUMENT_JSON }, source.document);
      await importOf(imports, { projectId: "other", format: ExportFormat.DOCUMENT_JSON, replaceExisting: true }, source.document);
      const acknowledged = [await exported("copy"), await exported("other")];
      await closeAll([imports], [durable]);
      durable = await startTestServer({ dataDir });
      imports = client(durable);
      assert.deepEqual([await exported("copy"), await exported("other")], acknowledged, "read back from the store as acknowledged");
      imports.close();
    } finally {
      await durable.stop();
      await removeDataDir(dataDir);
    }
  });
});
