import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import type { TypedClient } from "@crs/runtime";
import { BackupCheck, ExportFormat, type PersistenceService } from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { HealthCheckResponse_ServingStatus as Serving } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { client, closeAll, fill, readExport, withoutReplaceMarks } from "./persistence-test-support.js";
import { flipCheckpointBit } from "./stored-edits.js";
import { expectError, removeDataDir, startTestServer, type TestServer } from "./test-support.js";

type Persistence = TypedClient<typeof PersistenceService.method>;

const documentOf = async (persistence: Persistence, projectId: string) =>
  (await readExport(persistence, { projectId, format: ExportFormat.DOCUMENT_JSON })).document;

describe("PersistenceService backups through gRPC", () => {
  let s: TestServer;
  let tiny: TestServer;
  let persistence: Persistence;
  let tinyPersistence: Persistence;
  before(async () => {
    s = await startTestServer();
    tiny = await startTestServer({ env: { CRS_STATE_MAX_BACKUPS_PER_PROJECT: "2" } });
    persistence = client(s);
    tinyPersistence = client(tiny);
  });
  after(() => closeAll([persistence, tinyPersistence], [s, tiny]));

  it("reports PersistenceService SERVING in health once every method is served", async () => {
    assert.equal((await s.health.check({ service: "crs.state.v1.PersistenceService" })).status, Serving.SERVING);
  });

  it("restores the exact state a backup captured, not the changes made since, through create, list, get, verify, restore and delete", async () => {
    await fill(s, "p", 3);
    const captured = await documentOf(persistence, "p");
    const created = await persistence.createBackup({ projectId: "p", label: "before", projectFingerprint: "lock-1" });
    const backup = created.backup!;
    assert.equal(created.header?.generation, backup.generation, "a backup does not move the generation");
    assert.equal(backup.label, "before");
    assert.match(backup.contentHash, /^[0-9a-f]{64}$/);
    assert.match(backup.metadataHash, /^[0-9a-f]{64}$/);
    assert.ok(backup.compressedSize > 0n && backup.uncompressedSize === BigInt(captured.length), "the raw size is the document's");
    await s.similarity.recordSimilarity({ projectId: "p", a: "later", b: "change", distance: 9 });
    const moved = (await s.state.getGeneration({ projectId: "p" })).header!.generation;

    const listed = await persistence.listBackups({ projectId: "p" });
    assert.deepEqual(listed.backups, [backup], "listed as created");
    assert.equal(listed.header?.generation, moved, "the listing's header is the project's current generation");
    assert.deepEqual((await persistence.getBackup({ projectId: "p", backupId: backup.backupId })).backup, backup);
    assert.deepEqual((await persistence.getBackup({ projectId: "p" })).backup, backup, "an empty id is the latest");
    const verified = await persistence.verifyBackup({ projectId: "p", backupId: backup.backupId, projectFingerprint: "lock-1" });
    assert.equal(verified.ok, true);
    assert.deepEqual(
      verified.checks.map((c) => [BackupCheck[c.check], c.passed]),
      ["PRESENT", "METADATA_HASH", "FORMAT_VERSION", "SCHEMA_VERSION", "CONTENT_HASH", "DECODE", "CONSISTENCY"].map((c) => [c, true]),
    );

    const restore = { projectId: "p", backupId: backup.backupId, options: { requestId: "restore-1" } };
    const restored = await persistence.restoreBackup(restore);
    assert.equal(restored.restored, true);
    assert.equal(restored.header?.generation, moved + 1n, "a restore moves the generation forward, never back");
    assert.deepEqual(restored.backup, backup);
    const after = await documentOf(persistence, "p");
    assert.equal(withoutReplaceMarks(after), withoutReplaceMarks(captured), "every index, step and detector is the backup's");

    await persistence.deleteBackup({ projectId: "p", backupId: backup.backupId });
    assert.deepEqual((await persistence.listBackups({ projectId: "p" })).backups, []);
    await expectError(
      persistence.getBackup({ projectId: "p", backupId: backup.backupId }),
      status.NOT_FOUND,
      "BACKUP_NOT_FOUND",
      "backup_id",
    );
    await expectError(
      persistence.deleteBackup({ projectId: "p", backupId: backup.backupId }),
      status.NOT_FOUND,
      "BACKUP_NOT_FOUND",
      "backup_id",
    );

    const again = await persistence.restoreBackup(restore);
    assert.equal(again.header?.replayed, true, "a retried request id answers as the first restore did, even once its backup is gone");
    assert.equal(again.header?.generation, restored.header?.generation);
    assert.deepEqual(await documentOf(persistence, "p"), after, "and changes nothing");
  });

  it("refuses to restore another project's backup id or an unknown one as BACKUP_NOT_FOUND, changing nothing, unless the source project is named", async () => {
    await fill(s, "mine", 1);
    await fill(s, "theirs", 4);
    const theirs = (await persistence.createBackup({ projectId: "theirs" })).backup!;
    const before = await documentOf(persistence, "mine");
    for (const backupId of [theirs.backupId, "backup-unknown"]) {
      await expectError(persistence.restoreBackup({ projectId: "mine", backupId }), status.NOT_FOUND, "BACKUP_NOT_FOUND", "backup_id");
      await expectError(persistence.verifyBackup({ projectId: "mine", backupId }), status.NOT_FOUND, "BACKUP_NOT_FOUND", "backup_id");
    }
    await expectError(persistence.restoreBackup({ projectId: "mine" }), status.NOT_FOUND, "BACKUP_NOT_FOUND", "backup_id");
    const missing = await persistence.restoreBackup({ projectId: "mine", allowMissing: true });
    assert.equal(missing.restored, false, "allow_missing: nothing to restore is no error");
    assert.deepEqual(await documentOf(persistence, "mine"), before, "nothing changed");

    const copied = await persistence.restoreBackup({ projectId: "copy", sourceProjectId: "theirs" });
    assert.equal(copied.backup?.backupId, theirs.backupId, "the latest of the source");
    assert.equal(copied.header?.generation, theirs.generation, "a project that did not exist is created at the backup's generation");
    assert.deepEqual(await documentOf(persistence, "copy"), await documentOf(persistence, "theirs"));
  });

  it("refuses a backup older than max_age_ms or of another fingerprint as FAILED_PRECONDITION on restore, and reports it on verify, changing nothing", async () => {
    await fill(s, "aged", 1);
    const backup = (await persistence.createBackup({ projectId: "aged", projectFingerprint: "lock-a" })).backup!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const before = await documentOf(persistence, "aged");
    const old = { projectId: "aged", backupId: backup.backupId, maxAgeMs: 1n };
    await expectError(persistence.restoreBackup(old), status.FAILED_PRECONDITION, "CHECKPOINT_TOO_OLD", "backup_id");
    const other = { projectId: "aged", backupId: backup.backupId, projectFingerprint: "lock-b" };
    await expectError(persistence.restoreBackup(other), status.FAILED_PRECONDITION, "PROJECT_HASH_MISMATCH", "backup_id");
    const verified = await persistence.verifyBackup(old);
    assert.equal(verified.ok, false);
    assert.equal(verified.checks.at(-1)?.reason, "CHECKPOINT_TOO_OLD");
    assert.deepEqual(await documentOf(persistence, "aged"), before, "nothing changed");
  });

  it("refuses a label over 256 bytes as INVALID_ARGUMENT / LIMIT_EXCEEDED naming label, writing nothing", async () => {
    await fill(s, "labelled", 1);
    await expectError(
      persistence.createBackup({ projectId: "labelled", label: "x".repeat(257) }),
      status.INVALID_ARGUMENT,
      "LIMIT_EXCEEDED",
      "label",
    );
    assert.deepEqual((await persistence.listBackups({ projectId: "labelled" })).backups, []);
  });

  it("lists backups newest first and pages through them without repeats", async () => {
    await fill(s, "paged", 1);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await persistence.createBackup({ projectId: "paged", label: `b${i}` })).backup!.backupId);
    const first = await persistence.listBackups({ projectId: "paged", pageSize: 2 });
    assert.equal(first.backups.length, 2);
    assert.notEqual(first.nextPageToken, "");
    const second = await persistence.listBackups({ projectId: "paged", pageSize: 2, pageToken: first.nextPageToken });
    assert.equal(second.nextPageToken, "", "the last page");
    const all = [...first.backups, ...second.backups];
    const order = [...all].sort((a, b) => Number(b.createdAtUnixMs - a.createdAtUnixMs) || (a.backupId < b.backupId ? -1 : 1));
    assert.deepEqual(all, order, "created time descending, then id");
    assert.deepEqual(all.map((b) => b.backupId).sort(), [...made].sort(), "every backup once");
  });

  it("refuses a backup past CRS_STATE_MAX_BACKUPS_PER_PROJECT as RESOURCE_EXHAUSTED, writing nothing, until one is deleted", async () => {
    await fill(tiny, "full", 1);
    const kept = [];
    for (let i = 0; i < 2; i++) kept.push((await tinyPersistence.createBackup({ projectId: "full" })).backup!);
    const e = await expectError(tinyPersistence.createBackup({ projectId: "full" }), status.RESOURCE_EXHAUSTED, "LIMIT_EXCEEDED");
    assert.match(e.details, /CRS_STATE_MAX_BACKUPS_PER_PROJECT=2/, "the message names the setting");
    assert.equal((await tinyPersistence.listBackups({ projectId: "full" })).backups.length, 2, "nothing was written");
    await tinyPersistence.deleteBackup({ projectId: "full", backupId: kept[0]!.backupId });
    await tinyPersistence.createBackup({ projectId: "full" });
    assert.equal((await tinyPersistence.listBackups({ projectId: "full" })).backups.length, 2);
  });
});

describe("PersistenceService backups on the level store", () => {
  /** A durable server whose project `p` has one backup, stopped, `edit`ed on disk, then served again. */
  async function withStoredBackup(
    edit: (dataDir: string, uid: string, backupId: string) => Promise<unknown>,
    fn: (s: TestServer, persistence: Persistence, backupId: string, captured: Uint8Array) => Promise<void>,
  ): Promise<void> {
    const first = await startTestServer({ durable: true });
    let backupId = "";
    let uid = "";
    let captured: Uint8Array = new Uint8Array();
    const writer = client(first);
    try {
      await fill(first, "p", 2);
      uid = (await first.state.getGeneration({ projectId: "p" })).header!.projectUid;
      captured = await documentOf(writer, "p");
      backupId = (await writer.createBackup({ projectId: "p" })).backup!.backupId;
    } finally {
      await closeAll([writer], [first]);
    }
    await edit(first.dataDir, uid, backupId);
    const s = await startTestServer({ dataDir: first.dataDir });
    const persistence = client(s);
    try {
      await fn(s, persistence, backupId, captured);
    } finally {
      await closeAll([persistence], [s]);
      await removeDataDir(first.dataDir);
    }
  }

  it("keeps a backup across a restart and restores the state it captured from it", async () => {
    await withStoredBackup(
      async () => undefined,
      async (s, persistence, backupId, captured) => {
        assert.deepEqual(
          (await persistence.listBackups({ projectId: "p" })).backups.map((b) => b.backupId),
          [backupId],
        );
        assert.equal((await persistence.verifyBackup({ projectId: "p" })).ok, true);
        await s.similarity.recordSimilarity({ projectId: "p", a: "later", b: "change", distance: 9 });
        await persistence.restoreBackup({ projectId: "p", backupId });
        assert.equal(withoutReplaceMarks(await documentOf(persistence, "p")), withoutReplaceMarks(captured));
      },
    );
  });

  it("restores the previous backup when the latest fails verification and no id is given, saying why", async () => {
    const first = await startTestServer({ durable: true });
    const writer = client(first);
    let uid = "";
    let listed: string[] = [];
    try {
      await fill(first, "p", 2);
      uid = (await first.state.getGeneration({ projectId: "p" })).header!.projectUid;
      for (let i = 0; i < 2; i++) await writer.createBackup({ projectId: "p", label: `b${i}` });
      listed = (await writer.listBackups({ projectId: "p" })).backups.map((b) => b.backupId);
    } finally {
      await closeAll([writer], [first]);
    }
    const [latest, previous] = listed;
    await flipCheckpointBit(first.dataDir, uid, latest!, "body", "backup");
    const s = await startTestServer({ dataDir: first.dataDir });
    const persistence = client(s);
    try {
      const restored = await persistence.restoreBackup({ projectId: "p" });
      assert.equal(restored.backup?.backupId, previous, "the previous backup");
      assert.equal(restored.usedFallback, true);
      assert.match(restored.fallbackReason, new RegExp(`${latest}: CONTENT_HASH`), "the skipped backup and the check it failed");
      await expectError(
        persistence.restoreBackup({ projectId: "p", backupId: latest! }),
        status.DATA_LOSS,
        "BACKUP_CORRUPTED",
        "backup_id",
      );
    } finally {
      await closeAll([persistence], [s]);
      await removeDataDir(first.dataDir);
    }
  });

  for (const [part, check, reason] of [
    ["body", "CONTENT_HASH", "BACKUP_CORRUPTED"],
    ["head", "METADATA_HASH", "METADATA_CORRUPTED"],
  ] as const) {
    it(`refuses a backup with a flipped bit in its ${part} on verify (${check}) and restore (DATA_LOSS ${reason}), changing nothing`, async () => {
      await withStoredBackup(
        (dataDir, uid, backupId) => flipCheckpointBit(dataDir, uid, backupId, part, "backup"),
        async (s, persistence, backupId) => {
          const before = await documentOf(persistence, "p");
          const generation = (await s.state.getGeneration({ projectId: "p" })).header!.generation;
          const verified = await persistence.verifyBackup({ projectId: "p", backupId });
          assert.equal(verified.ok, false);
          const failed = verified.checks.find((c) => !c.passed);
          assert.equal(failed && BackupCheck[failed.check], check, "the check that failed is named");
          assert.equal(failed?.reason, reason);
          assert.equal(verified.checks.at(-1), failed, "the checks that depend on it are skipped");
          for (const req of [{ projectId: "p", backupId }, { projectId: "p" }]) {
            const e = await expectError(persistence.restoreBackup(req), status.DATA_LOSS, reason, "backup_id");
            assert.match(e.details, new RegExp(`failed check ${check}`), "the message names the check");
          }
          assert.equal((await s.state.getGeneration({ projectId: "p" })).header!.generation, generation, "the generation stays");
          assert.deepEqual(await documentOf(persistence, "p"), before, "the state stays");
        },
      );
    });
  }
});
