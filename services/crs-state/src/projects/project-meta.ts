/** A project's catalogue entry: who it is and how it was created, framed as kind 4. */

import type { StateConfig } from "@crs/domain/state";
import { decodeJsonFrame, encodeJsonFrame, type JsonFrameResult } from "../journal/json-frame.js";

/** Version of the metadata payload. */
export const PROJECT_META_FORMAT = 1;

/** What the catalogue keeps per project. */
export interface ProjectMeta {
  /** {@link PROJECT_META_FORMAT}. */
  readonly format: number;
  /** The caller's id. */
  readonly projectId: string;
  /** Uid of this incarnation; every other key of the project is filed under it. */
  readonly projectUid: string;
  /** Unix ms of creation. */
  readonly createdAt: number;
  /** The limits given at creation (merged over the defaults when the engine starts). */
  readonly config: Partial<StateConfig>;
  /** Request id of the create call, so a retried create is answered, not refused. */
  readonly createRequestId: string;
  /**
   * Generation the project started at: 0 when created, the source's generation when forked.
   * Absent in catalogue entries written before it was kept.
   */
  readonly baseGeneration?: number;
  /**
   * Fingerprint (hex) of the create request, kept with its request id: the same id with another
   * request is refused. Absent without a request id and in entries written before it was kept.
   */
  readonly createFingerprint?: string;
  /** The create's encoded answer (base64), replayed to its retries; absent as `createFingerprint` is. */
  readonly createAnswer?: string;
}

/** Frames metadata for the store. */
export function encodeMeta(meta: ProjectMeta): Uint8Array {
  return encodeJsonFrame("projectMeta", meta);
}

/** Decodes and checks the metadata filed under `projectId`; never throws. */
export function decodeMeta(bytes: Uint8Array, projectId: string): JsonFrameResult<ProjectMeta> {
  return decodeJsonFrame<ProjectMeta>("projectMeta", bytes, PROJECT_META_FORMAT, (m) =>
    m.projectId !== projectId || typeof m.projectUid !== "string"
      ? `metadata of ${String(m.projectId)} filed under ${projectId}`
      : undefined,
  );
}
