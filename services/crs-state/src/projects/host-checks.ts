/** Checks the host makes before it touches a project: identity, uid, generation, fork source. */

import { randomBytes } from "node:crypto";
import { StateError, type ProjectState } from "@crs/domain/state";
import { CrsStateError } from "../errors.js";
import type { LoadedProject } from "./loaded-project.js";
import type { ProjectMeta } from "./project-meta.js";
import { snapshotOf } from "./retained-snapshots.js";

/** A fresh project uid: 128 random bits, hex. */
export function newUid(): string {
  return randomBytes(16).toString("hex");
}

/** PROJECT_NOT_FOUND naming the project. */
export function notFound(projectId: string): CrsStateError {
  return new CrsStateError("PROJECT_NOT_FOUND", `project ${projectId} not found`, { field: "project_id", projectId });
}

/** PROJECT_UID_MISMATCH unless `expectedUid` is unset or the project's uid. */
export function checkUid(meta: ProjectMeta, expectedUid: string | undefined): void {
  if (expectedUid !== undefined && expectedUid !== "" && expectedUid !== meta.projectUid) {
    throw new CrsStateError("PROJECT_UID_MISMATCH", `project ${meta.projectId} has uid ${meta.projectUid}, not ${expectedUid}`, {
      field: "expected_project_uid",
      projectId: meta.projectId,
      expectedProjectUid: expectedUid,
      projectUid: meta.projectUid,
    });
  }
}

/** GENERATION_MISMATCH unless `expected` is unset or equals `current`. */
export function checkGeneration(expected: number | undefined, current: number): void {
  if (expected !== undefined && expected !== current) {
    throw new StateError("GENERATION_MISMATCH", `expected generation ${expected}, current is ${current}`, {
      field: "expected_generation",
      metadata: { expected_generation: String(expected), current_generation: String(current) },
    });
  }
}

/**
 * The committed state of `source` at `generation` (the current one when absent), found and refused
 * as reads find and refuse it (GENERATION_IN_FUTURE, or GENERATION_COMPACTED with
 * `oldest_generation` and `current_generation`).
 */
export function stateAt(source: LoadedProject, generation: number | undefined): ProjectState {
  return generation === undefined ? source.committed : snapshotOf(source.view(), generation, "at_generation").state;
}
