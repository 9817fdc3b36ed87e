/**
 * A backup as stored: a small metadata record (the head, what a listing reads) and the gzip of
 * the project's state document (the body). The metadata carries hashes of the compressed and of
 * the raw document and a hash of itself, so every kind of damage is found before a restore.
 */

import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { gunzip as gunzipCallback, gzip as gzipCallback } from "node:zlib";
import { fromDocument, type ProjectState, type StateConfig, type StateDocument } from "@crs/domain/state";

/** Version of the backup layout this server writes and reads. */
export const BACKUP_FORMAT_VERSION = "1";
/** Schema version of the state document inside (the export schema version). */
export const BACKUP_SCHEMA_VERSION = "1.0";

/** What a backup's head records; `metadataHash` covers every other field, in this order. */
export interface BackupMeta {
  readonly backupId: string;
  readonly projectId: string;
  readonly projectUid: string;
  readonly generation: number;
  readonly createdAt: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  /** Lowercase hex SHA-256 of the body (the compressed document). */
  readonly contentHash: string;
  /** Lowercase hex SHA-256 of the raw document. */
  readonly documentHash: string;
  readonly formatVersion: string;
  readonly schemaVersion: string;
  readonly label: string;
  readonly projectFingerprint: string;
  readonly metadataHash: string;
}

// The async forms run on libuv's thread pool: a large backup does not stall every other call of the
// server. Same defaults as the sync forms, so the bytes (and their hashes) are the same.
const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** The canonical bytes the metadata hash is taken of: every field but the hash, in a fixed order. */
function canonical(m: Omit<BackupMeta, "metadataHash">): string {
  const { backupId, projectId, projectUid, generation, createdAt, compressedSize, uncompressedSize } = m;
  const { contentHash, documentHash, formatVersion, schemaVersion, label, projectFingerprint } = m;
  return JSON.stringify([
    backupId,
    projectId,
    projectUid,
    generation,
    createdAt,
    compressedSize,
    uncompressedSize,
    contentHash,
    documentHash,
    formatVersion,
    schemaVersion,
    label,
    projectFingerprint,
  ]);
}

/** The hash a metadata record must carry. */
export function metadataHashOf(m: Omit<BackupMeta, "metadataHash">): string {
  return sha256(new TextEncoder().encode(canonical(m)));
}

/** Head and body of a new backup of `document`, compressed off the event loop. */
export async function encodeBackup(
  document: StateDocument,
  fields: Omit<
    BackupMeta,
    "compressedSize" | "uncompressedSize" | "contentHash" | "documentHash" | "formatVersion" | "schemaVersion" | "metadataHash"
  >,
): Promise<{ meta: BackupMeta; head: Uint8Array; body: Uint8Array }> {
  const raw = new TextEncoder().encode(JSON.stringify(document));
  const body = await gzip(raw);
  const unsigned = {
    ...fields,
    compressedSize: body.length,
    uncompressedSize: raw.length,
    contentHash: sha256(body),
    documentHash: sha256(raw),
    formatVersion: BACKUP_FORMAT_VERSION,
    schemaVersion: BACKUP_SCHEMA_VERSION,
  };
  const meta = { ...unsigned, metadataHash: metadataHashOf(unsigned) };
  return { meta, head: new TextEncoder().encode(JSON.stringify(meta)), body };
}

/** The metadata a head holds, when it parses; its hash is not checked here (see {@link verifyBackup}). */
export function readBackupMeta(head: Uint8Array): BackupMeta | undefined {
  try {
    const m = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(head)) as BackupMeta;
    return typeof m === "object" && m !== null && typeof m.backupId === "string" ? m : undefined;
  } catch {
    return undefined;
  }
}

/** The verification steps, in order (BackupCheck's values). */
export type BackupCheckName = "PRESENT" | "METADATA_HASH" | "FORMAT_VERSION" | "SCHEMA_VERSION" | "CONTENT_HASH" | "DECODE" | "CONSISTENCY";

/** The ErrorReason name a failed step reports. */
export type BackupFault =
  | "BACKUP_NOT_FOUND"
  | "METADATA_CORRUPTED"
  | "BACKUP_VERSION_MISMATCH"
  | "SCHEMA_VERSION_MISMATCH"
  | "BACKUP_CORRUPTED"
  | "CHECKPOINT_TOO_OLD"
  | "PROJECT_HASH_MISMATCH";

/** One step's outcome. */
export interface BackupCheckResult {
  readonly check: BackupCheckName;
  readonly passed: boolean;
  readonly reason?: BackupFault;
  readonly detail?: string;
}

/** What a verification found: every step run, and the state when every step passed. */
export interface BackupVerdict {
  readonly checks: readonly BackupCheckResult[];
  /** The first failed step. */
  readonly failed?: BackupCheckResult;
  readonly state?: ProjectState;
  readonly document?: StateDocument;
}

/** What a verification also asks: a maximum age against `now`, and a fingerprint. */
export interface BackupDemands {
  readonly now: number;
  readonly maxAgeMs: number;
  readonly projectFingerprint: string;
}

/**
 * Checks a stored backup completely, step by step; a step failing stops the ones that depend on
 * it. Age and fingerprint, which are demands of the caller rather than damage, are part of the
 * last step so that a stale backup is still reported as intact up to there. The body is
 * decompressed off the event loop.
 */
export async function verifyBackup(
  meta: BackupMeta,
  body: Uint8Array | undefined,
  config: StateConfig,
  demands: BackupDemands,
): Promise<BackupVerdict> {
  const checks: BackupCheckResult[] = [];
  const step = (check: BackupCheckName, fault: BackupFault, detail: string | undefined): boolean => {
    checks.push(detail === undefined ? { check, passed: true } : { check, passed: false, reason: fault, detail });
    return detail === undefined;
  };
  const done = (extra: Partial<BackupVerdict> = {}): BackupVerdict => {
    const failed = checks.find((c) => !c.passed);
    return { checks, ...(failed === undefined ? extra : { failed }) };
  };
  if (!step("PRESENT", "BACKUP_CORRUPTED", body === undefined ? "the backup's content is missing" : undefined)) return done();
  const { metadataHash, ...unsigned } = meta;
  const expectedMeta = metadataHashOf(unsigned);
  if (
    !step(
      "METADATA_HASH",
      "METADATA_CORRUPTED",
      metadataHash === expectedMeta ? undefined : `expected=${metadataHash}, actual=${expectedMeta}`,
    )
  )
    return done();
  const fv =
    meta.formatVersion === BACKUP_FORMAT_VERSION ? undefined : `format ${meta.formatVersion}; this server reads ${BACKUP_FORMAT_VERSION}`;
  if (!step("FORMAT_VERSION", "BACKUP_VERSION_MISMATCH", fv)) return done();
  const sv =
    meta.schemaVersion === BACKUP_SCHEMA_VERSION ? undefined : `schema ${meta.schemaVersion}; this server reads ${BACKUP_SCHEMA_VERSION}`;
  if (!step("SCHEMA_VERSION", "SCHEMA_VERSION_MISMATCH", sv)) return done();
  const content = body as Uint8Array;
  const contentHash = sha256(content);
  const ch =
    contentHash !== meta.contentHash
      ? `expected=${meta.contentHash}, actual=${contentHash}`
      : content.length !== meta.compressedSize
        ? `expected ${meta.compressedSize} bytes, found ${content.length}`
        : undefined;
  if (!step("CONTENT_HASH", "BACKUP_CORRUPTED", ch)) return done();
  let state: ProjectState | undefined;
  let document: StateDocument | undefined;
  let decodeFault: string | undefined;
  try {
    const raw = await gunzip(content);
    if (sha256(raw) !== meta.documentHash) decodeFault = `document hash expected=${meta.documentHash}, actual=${sha256(raw)}`;
    else {
      document = JSON.parse(raw.toString("utf8")) as StateDocument;
      state = fromDocument(document, config);
    }
  } catch (e) {
    decodeFault = `the content does not decode: ${(e as Error).message}`;
  }
  if (!step("DECODE", "BACKUP_CORRUPTED", decodeFault) || state === undefined) return done();
  const age = demands.now - meta.createdAt;
  const consistency =
    state.generation !== meta.generation
      ? {
          fault: "BACKUP_CORRUPTED" as const,
          detail: `the state is at generation ${state.generation}, the metadata says ${meta.generation}`,
        }
      : demands.maxAgeMs > 0 && age > demands.maxAgeMs
        ? { fault: "CHECKPOINT_TOO_OLD" as const, detail: `the backup is ${age} ms old, more than max_age_ms=${demands.maxAgeMs}` }
        : demands.projectFingerprint !== "" && meta.projectFingerprint !== "" && demands.projectFingerprint !== meta.projectFingerprint
          ? { fault: "PROJECT_HASH_MISMATCH" as const, detail: `the backup has fingerprint ${meta.projectFingerprint}` }
          : undefined;
  step("CONSISTENCY", consistency?.fault ?? "BACKUP_CORRUPTED", consistency?.detail);
  return done({ state, document: document as StateDocument });
}
