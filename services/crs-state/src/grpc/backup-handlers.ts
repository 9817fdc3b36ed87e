/**
 * PersistenceService's backup methods, through the host's backups: create, list (newest first),
 * get, verify (every check reported), restore (verified first, then the journaled import
 * mutation, replayed by request id) and delete.
 */

import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  BackupCheck,
  RestoreBackupRequestSchema,
  RestoreBackupResponseSchema,
  type BackupInfoSchema,
  type CheckResultSchema,
  type PersistenceService,
} from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { invalidArgument, limitExceeded, type ServiceHandlers } from "@crs/runtime";
import type { VerifiedBackup } from "../projects/host-backups.js";
import type { BackupCheckResult, BackupMeta } from "../snapshot/backup-record.js";
import type { HandlerDeps } from "./deps.js";
import { optionalId, requireId } from "./ids.js";
import { decodeAnswer, encodeAnswer, prepareRestore, withOptionPath } from "./mutations.js";
import { keysetPageToken, openKeysetPage } from "./page-token.js";
import { responseHeader } from "./reads.js";

type BackupHandlers = Pick<
  ServiceHandlers<typeof PersistenceService.method>,
  "createBackup" | "listBackups" | "getBackup" | "verifyBackup" | "restoreBackup" | "deleteBackup"
>;

const MAX_LABEL_BYTES = 256;

/** A backup on the wire; the delta count is the generation, the changes since the project was created. */
function backupOut(m: BackupMeta): MessageInitShape<typeof BackupInfoSchema> {
  return {
    backupId: m.backupId,
    projectId: m.projectId,
    generation: BigInt(m.generation),
    createdAtUnixMs: BigInt(m.createdAt),
    contentHash: m.contentHash,
    uncompressedSize: BigInt(m.uncompressedSize),
    compressedSize: BigInt(m.compressedSize),
    deltaCount: BigInt(m.generation),
    schemaVersion: m.schemaVersion,
    formatVersion: m.formatVersion,
    metadataHash: m.metadataHash,
    label: m.label,
    projectFingerprint: m.projectFingerprint,
  };
}

function checkOut(c: BackupCheckResult): MessageInitShape<typeof CheckResultSchema> {
  return { check: BackupCheck[c.check], passed: c.passed, reason: c.reason ?? "", detail: c.detail ?? "" };
}

// A listing key: created time (zero-padded, so keys of equal length compare as numbers) and id.
const listKey = (m: BackupMeta): string => `${String(m.createdAt).padStart(16, "0")}|${m.backupId}`;
// Newest first, then id ascending: `a` comes after the key `after` in that order.
function comesAfter(m: BackupMeta, after: string): boolean {
  const [created = "", id = ""] = after.split("|", 2);
  const mine = String(m.createdAt).padStart(16, "0");
  return mine < created || (mine === created && m.backupId > id);
}

function nonNegativeMs(value: bigint, field: string): number {
  if (value < 0n) throw invalidArgument(field, "an age is 0 (no limit) or more milliseconds");
  return Number(value);
}

/** The backup methods of PersistenceService. */
export function backupHandlers({ host, elapsed }: HandlerDeps): BackupHandlers {
  return {
    async createBackup(req) {
      const projectId = requireId(req.projectId, "project_id");
      if (Buffer.byteLength(req.label, "utf8") > MAX_LABEL_BYTES)
        throw limitExceeded("label", MAX_LABEL_BYTES, `a label has at most ${MAX_LABEL_BYTES} bytes`);
      const uid = req.options?.expectedProjectUid ?? "";
      const created = await host.backups.create(projectId, {
        label: req.label,
        projectFingerprint: req.projectFingerprint,
        ...(uid === "" ? {} : { expectedUid: uid }),
      });
      return { backup: backupOut(created.meta), header: responseHeader(created.header) };
    },

    async listBackups(req) {
      const projectId = requireId(req.projectId, "project_id");
      const { backups, header } = await host.backups.list(projectId);
      const cursor = openKeysetPage(req.pageToken, req.pageSize, header.projectUid, "backups");
      const after = cursor.after;
      const rest = after === undefined ? backups : backups.filter((b) => comesAfter(b, after));
      const page = rest.slice(0, cursor.size);
      const last = page.at(-1);
      return {
        backups: page.map(backupOut),
        nextPageToken: keysetPageToken(
          rest.length > page.length,
          header.projectUid,
          header.generation,
          "backups",
          last === undefined ? "" : listKey(last),
        ),
        header: responseHeader(header),
      };
    },

    async getBackup(req) {
      const projectId = requireId(req.projectId, "project_id");
      const { meta, header } = await host.backups.get(projectId, optionalId(req.backupId, "backup_id"));
      return { backup: backupOut(meta), header: responseHeader(header) };
    },

    async verifyBackup(req) {
      const projectId = requireId(req.projectId, "project_id");
      const backupId = optionalId(req.backupId, "backup_id");
      const maxAgeMs = nonNegativeMs(req.maxAgeMs, "max_age_ms");
      const v = await host.backups.verify(projectId, backupId, { maxAgeMs, projectFingerprint: req.projectFingerprint });
      return { backup: backupOut(v.meta), ok: v.failed === undefined, checks: v.checks.map(checkOut), header: responseHeader(v.header) };
    },

    async restoreBackup(req) {
      const started = elapsed();
      const projectId = requireId(req.projectId, "project_id");
      const backupId = optionalId(req.backupId, "backup_id");
      const sourceId = req.sourceProjectId === "" ? projectId : requireId(req.sourceProjectId, "source_project_id");
      const maxAgeMs = nonNegativeMs(req.maxAgeMs, "max_age_ms");
      const call = {
        method: "RestoreBackup",
        projectId,
        requestSchema: RestoreBackupRequestSchema,
        request: req,
        responseSchema: RestoreBackupResponseSchema,
      };
      const request = prepareRestore(call);
      const demands = { maxAgeMs, projectFingerprint: req.projectFingerprint, allowMissing: req.allowMissing };
      const outcome = await host.backups
        .restore(projectId, sourceId, backupId, { ...request, ...demands }, (h, used: VerifiedBackup | undefined, skipped) =>
          encodeAnswer(RestoreBackupResponseSchema, {
            header: responseHeader(h),
            restored: used !== undefined,
            ...(used === undefined ? {} : { backup: backupOut(used.meta) }),
            usedFallback: skipped !== undefined && used !== undefined,
            fallbackReason:
              skipped?.failed === undefined ? "" : `${skipped.meta.backupId}: ${skipped.failed.check}: ${skipped.failed.detail}`,
            durationMs: BigInt(Math.round(elapsed() - started)),
          }),
        )
        .catch((e: unknown) => {
          throw withOptionPath(e);
        });
      return decodeAnswer(RestoreBackupResponseSchema, outcome);
    },

    async deleteBackup(req) {
      const projectId = requireId(req.projectId, "project_id");
      const backupId = requireId(req.backupId, "backup_id");
      const uid = req.options?.expectedProjectUid ?? "";
      const header = await host.backups.delete(projectId, backupId, uid === "" ? {} : { expectedUid: uid });
      return { header: responseHeader(header) };
    },
  };
}
