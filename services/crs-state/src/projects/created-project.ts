/**
 * The catalogue entry of a new project and the answer to a create whose id is taken: the stored
 * first answer when the create is retried with its request id, PROJECT_EXISTS otherwise.
 */

import { CrsStateError } from "../errors.js";
import { newUid } from "./host-checks.js";
import type { CreatedProject, CreateProjectOptions, ProjectHeader } from "./project-host.js";
import { PROJECT_META_FORMAT, type ProjectMeta } from "./project-meta.js";
import { assertSameRequest } from "./request-table.js";

/** The method name a create's request id is checked under. */
const CREATE_METHOD = "CreateProject";

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");

/**
 * The metadata of a new project and its answer. With a request id, the create's fingerprint and
 * encoded answer are kept in the metadata, so a retry is checked and answered from them.
 */
export function newProjectMeta(projectId: string, opts: CreateProjectOptions, createdAt: number): CreatedProject & { meta: ProjectMeta } {
  const projectUid = newUid();
  const header: ProjectHeader = { projectId, projectUid, generation: 0, replayed: false };
  const answer = opts.answer?.(header);
  const requestId = opts.requestId ?? "";
  const meta: ProjectMeta = {
    format: PROJECT_META_FORMAT,
    projectId,
    projectUid,
    createdAt,
    config: { ...(opts.config ?? {}) },
    createRequestId: requestId,
    baseGeneration: 0,
    ...(requestId === ""
      ? {}
      : { createFingerprint: opts.fingerprint ?? "", ...(answer === undefined ? {} : { createAnswer: base64(answer) }) }),
  };
  return { ...header, ...(answer === undefined ? {} : { answer }), meta };
}

/**
 * The answer to a create of a project that exists: its first answer, replayed, when `opts` retries
 * the create that made it; REQUEST_ID_REUSED when the id came with another request; else
 * PROJECT_EXISTS. Metadata written before creates kept their fingerprint matches on the id alone.
 */
export function existingProject(existing: ProjectMeta, opts: CreateProjectOptions): CreatedProject {
  const { projectId, projectUid, createRequestId } = existing;
  const requestId = opts.requestId ?? "";
  if (requestId === "" || createRequestId !== requestId) {
    throw new CrsStateError("PROJECT_EXISTS", `project ${projectId} already exists`, { field: "project_id", projectId });
  }
  if (existing.createFingerprint !== undefined) {
    assertSameRequest({ method: CREATE_METHOD, fingerprint: existing.createFingerprint }, requestId, CREATE_METHOD, opts.fingerprint ?? "");
  }
  const header: ProjectHeader = { projectId, projectUid, generation: 0, replayed: true };
  return existing.createAnswer === undefined ? header : { ...header, answer: new Uint8Array(Buffer.from(existing.createAnswer, "base64")) };
}
