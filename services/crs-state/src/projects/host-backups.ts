/**
 * Backups of the store host: a compressed state document and its metadata record, filed on the
 * store's backup shelf under the project's uid, head and body in one atomic write. Taking one
 * does not move the generation; restoring one verifies it completely first, then replaces the
 * state through the journaled import mutation.
 */

import { randomBytes } from "node:crypto";
import { toDocument } from "@crs/domain/state";
import type { StoreOptions } from "../config/store-options.js";
import { CrsStateError, type CrsStateErrorCode } from "../errors.js";
import {
  encodeBackup,
  readBackupMeta,
  verifyBackup,
  type BackupFault,
  type BackupMeta,
  type BackupVerdict,
} from "../snapshot/backup-record.js";
import { CheckpointCounts } from "./checkpoint-counts.js";
import { notFound as projectNotFound } from "./host-checks.js";
import type { LoadedProject } from "./loaded-project.js";
import type { MutationOutcome, MutationRequest, ProjectHeader } from "./project-host.js";
import { requireValidId } from "./project-ids.js";
import { replayOf } from "./replayed-answer.js";
import { countedWrite, projectIfExists, underProjectLock } from "./shelf-writes.js";
import type { StoreHost } from "./store-host.js";

const SHELF = "backup";

/** The error each failed verification step raises. */
const FAULT_CODE: Readonly<Record<BackupFault, CrsStateErrorCode>> = {
  BACKUP_NOT_FOUND: "BACKUP_NOT_FOUND",
  METADATA_CORRUPTED: "BACKUP_METADATA_CORRUPTED",
  BACKUP_VERSION_MISMATCH: "BACKUP_VERSION_MISMATCH",
  SCHEMA_VERSION_MISMATCH: "BACKUP_SCHEMA_MISMATCH",
  BACKUP_CORRUPTED: "BACKUP_CORRUPTED",
  CHECKPOINT_TOO_OLD: "BACKUP_TOO_OLD",
  PROJECT_HASH_MISMATCH: "BACKUP_FINGERPRINT_MISMATCH",
};

/** What verify and restore also demand of a backup. */
export interface BackupDemandOptions {
  readonly maxAgeMs: number;
  readonly projectFingerprint: string;
}

/** A backup's verification, with its metadata. */
export interface VerifiedBackup extends BackupVerdict {
  readonly meta: BackupMeta;
}

function notFound(projectId: string, backupId: string): CrsStateError {
  return new CrsStateError(
    "BACKUP_NOT_FOUND",
    backupId === "" ? `project ${projectId} has no backup` : `project ${projectId} has no backup ${backupId}`,
    { field: "backup_id", backupId, projectId },
  );
}

/** The error of a failed verification, naming the step. */
export function verificationError(projectId: string, v: VerifiedBackup): CrsStateError {
  const failed = v.failed;
  const reason = failed?.reason ?? "BACKUP_CORRUPTED";
  return new CrsStateError(
    FAULT_CODE[reason],
    `backup ${v.meta.backupId} of project ${projectId} failed check ${failed?.check}: ${failed?.detail}; nothing was changed`,
    { field: "backup_id", backupId: v.meta.backupId, check: failed?.check ?? "", projectId },
  );
}

/** Backups of a {@link StoreHost}'s projects. */
export class HostBackups {
  private readonly counts: CheckpointCounts;
  private readonly maxPerProject: number;

  /** Serves the backups of `host`'s projects, at most `maxBackupsPerProject` each. */
  constructor(
    private readonly host: StoreHost,
    opts: Pick<StoreOptions, "maxBackupsPerProject" | "maxLoadedProjects">,
  ) {
    this.maxPerProject = opts.maxBackupsPerProject;
    this.counts = new CheckpointCounts(host.backing, opts.maxLoadedProjects, SHELF);
  }

  /** Writes a backup of the project's committed state; BACKUP_LIMIT when the project holds the most kept. */
  async create(
    projectId: string,
    opts: { label: string; projectFingerprint: string; expectedUid?: string },
  ): Promise<{ meta: BackupMeta; header: ProjectHeader }> {
    const p = await this.host.project(projectId, opts.expectedUid);
    const uid = p.meta.projectUid;
    // Under the project's lock, as checkpoints: the count read is the one this write moves.
    return underProjectLock(this.host, projectId, uid, async () => {
      this.host.assertWritable();
      const held = await this.counts.of(uid);
      if (held >= this.maxPerProject) {
        throw new CrsStateError(
          "BACKUP_LIMIT",
          `project ${projectId} holds ${held} backups, the most this server keeps per project ` +
            `(CRS_STATE_MAX_BACKUPS_PER_PROJECT=${this.maxPerProject}); delete one to make room`,
          { limit: String(this.maxPerProject), projectId },
        );
      }
      const state = p.committed;
      const createdAt = this.host.clock();
      // Sortable by creation: the time, zero-padded, then random bits against ids made in the same millisecond.
      const backupId = `backup-${String(createdAt).padStart(15, "0")}-${randomBytes(6).toString("hex")}`;
      const { meta, head, body } = await encodeBackup(toDocument(state), {
        backupId,
        projectId,
        projectUid: uid,
        generation: state.generation,
        createdAt,
        label: opts.label,
        projectFingerprint: opts.projectFingerprint,
      });
      await countedWrite(this.host, this.counts, uid, [
        { op: "putCheckpoint", shelf: SHELF, projectUid: uid, checkpointId: backupId, head, body },
      ]);
      this.counts.changed(uid, 1);
      return { meta, header: p.header() };
    });
  }

  /** Every backup's metadata, newest first (created time descending, then id); unreadable heads are left out. */
  async list(projectId: string, opts: { expectedUid?: string } = {}): Promise<{ backups: BackupMeta[]; header: ProjectHeader }> {
    const p = await this.host.project(projectId, opts.expectedUid);
    return { backups: await this.metas(p), header: p.header() };
  }

  /** One backup's metadata (empty id: the latest); BACKUP_NOT_FOUND. */
  async get(projectId: string, backupId: string): Promise<{ meta: BackupMeta; header: ProjectHeader }> {
    const p = await this.host.project(projectId, undefined);
    const [meta] = await this.candidates(p, backupId);
    if (meta === undefined) throw notFound(projectId, backupId);
    return { meta, header: p.header() };
  }

  /** Verifies one backup (empty id: the latest) completely; changes nothing. */
  async verify(projectId: string, backupId: string, demands: BackupDemandOptions): Promise<VerifiedBackup & { header: ProjectHeader }> {
    const p = await this.host.project(projectId, undefined);
    const [meta] = await this.candidates(p, backupId);
    if (meta === undefined) throw notFound(projectId, backupId);
    return { ...(await this.check(p, meta, demands)), header: p.header() };
  }

  /**
   * Verifies a backup of `sourceId` (empty id: the latest, falling back to older ones that pass),
   * then replaces `projectId`'s state with it (creating the project when absent). Undefined when
   * `allowMissing` and the source holds no backup.
   */
  async restore(
    projectId: string,
    sourceId: string,
    backupId: string,
    req: MutationRequest & BackupDemandOptions & { readonly allowMissing: boolean },
    answer: (header: ProjectHeader, restored: VerifiedBackup | undefined, skipped: VerifiedBackup | undefined) => Uint8Array,
  ): Promise<MutationOutcome> {
    const target = await projectIfExists(this.host, projectId, req.expectedUid);
    // A retry answers as the first call did, even once the backup is gone.
    const replay = target === undefined ? undefined : replayOf(target, req);
    if (replay !== undefined) return replay;
    const source = await this.host.project(sourceId, undefined);
    const candidates = await this.candidates(source, backupId);
    if (candidates.length === 0) {
      if (!req.allowMissing) throw notFound(sourceId, backupId);
      if (target === undefined) throw projectNotFound(projectId);
      return { answer: answer(target.header(), undefined, undefined), replayed: false, header: target.header() };
    }
    let skipped: VerifiedBackup | undefined;
    let chosen: VerifiedBackup | undefined;
    for (const meta of backupId === "" ? candidates : candidates.slice(0, 1)) {
      const v = await this.check(source, meta, req);
      if (v.failed === undefined) {
        chosen = v;
        break;
      }
      skipped ??= v;
    }
    if (chosen?.document === undefined) throw verificationError(sourceId, skipped as VerifiedBackup);
    const used = chosen;
    const fallback = skipped;
    return this.host.imports.run(projectId, used.document as NonNullable<typeof used.document>, { ...req, replaceExisting: true }, (h) =>
      answer(h, used, fallback),
    );
  }

  /** Removes a backup; BACKUP_NOT_FOUND when absent. Its content is not checked: a damaged one is deleted too. */
  async delete(projectId: string, backupId: string, opts: { expectedUid?: string } = {}): Promise<ProjectHeader> {
    const p = await this.host.project(projectId, opts.expectedUid);
    requireValidId(backupId, "backup_id");
    const uid = p.meta.projectUid;
    return underProjectLock(this.host, projectId, uid, async () => {
      this.host.assertWritable();
      if ((await this.host.backing.getCheckpoint(uid, backupId, SHELF)) === undefined) throw notFound(projectId, backupId);
      await countedWrite(this.host, this.counts, uid, [{ op: "deleteCheckpoint", shelf: SHELF, projectUid: uid, checkpointId: backupId }]);
      this.counts.changed(uid, -1);
      return p.header();
    });
  }

  private async metas(p: LoadedProject): Promise<BackupMeta[]> {
    const rows = await this.host.backing.listCheckpoints(p.meta.projectUid, { shelf: SHELF });
    const out: BackupMeta[] = [];
    for (const row of rows) {
      const meta = readBackupMeta(row.head);
      // A head that does not parse is still its own id's: listed with what is known, so it can be deleted.
      out.push(meta ?? unreadable(row.checkpointId, p));
    }
    return out.sort((a, b) => b.createdAt - a.createdAt || (a.backupId < b.backupId ? -1 : a.backupId > b.backupId ? 1 : 0));
  }

  // The backup named, or (empty id) every backup newest first.
  private async candidates(p: LoadedProject, backupId: string): Promise<BackupMeta[]> {
    if (backupId === "") return this.metas(p);
    requireValidId(backupId, "backup_id");
    const stored = await this.host.backing.getCheckpoint(p.meta.projectUid, backupId, SHELF);
    if (stored === undefined) return [];
    return [readBackupMeta(stored.head) ?? unreadable(backupId, p)];
  }

  private async check(p: LoadedProject, meta: BackupMeta, demands: BackupDemandOptions): Promise<VerifiedBackup> {
    const stored = await this.host.backing.getCheckpoint(p.meta.projectUid, meta.backupId, SHELF);
    const verdict = await verifyBackup(meta, stored?.body, p.committed.config, { now: this.host.clock(), ...demands });
    return { ...verdict, meta };
  }
}

// A head that does not parse: its metadata hash can never match, so verification fails at METADATA_HASH.
function unreadable(backupId: string, p: LoadedProject): BackupMeta {
  return {
    backupId,
    projectId: p.meta.projectId,
    projectUid: p.meta.projectUid,
    generation: 0,
    createdAt: 0,
    compressedSize: 0,
    uncompressedSize: 0,
    contentHash: "",
    documentHash: "",
    formatVersion: "",
    schemaVersion: "",
    label: "",
    projectFingerprint: "",
    metadataHash: "",
  };
}
