/** Checks the host makes before it touches a project: identity, uid, generation, fork source. */

import { randomBytes } from "node:crypto";
import { StateError, isStateError, type ProjectState } from "@crs/domain/state";
import { CrsStateError, generationInFuture } from "../errors.js";
import type { LoadedProject } from "./loaded-project.js";
import type { ProjectMeta } from "./project-meta.js";

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
    });
  }
}

/** GENERATION_MISMATCH unless `expected` is unset or equals `current`. */
export function checkGeneration(expected: number | undefined, current: number): void {
  if (expected !== undefined && expected !== current) {
    throw new StateError("GENERATION_MISMATCH", `expected generation ${expected}, current is ${current}`, { field: "expected_generation" });
  }
}

/**
 * The committed state of `source` at `generation`; GENERATION_IN_FUTURE when not reached,
 * SNAPSHOT_NOT_FOUND when not held, with `oldest_generation` and `current_generation` as reads give them.
 */
export function stateAt(source: LoadedProject, generation: number): ProjectState {
  const current = source.committed.generation;
  // As reads answer a generation not reached yet: a fork from it may succeed later, one compacted never will.
  if (Number.isSafeInteger(generation) && generation > current) {
    throw generationInFuture("at_generation", generation, current);
  }
  if (generation === current) return source.committed;
  const engine = source.committedEngine();
  const notHeld = (message: string, cause?: unknown): StateError =>
    new StateError("SNAPSHOT_NOT_FOUND", message, {
      field: "at_generation",
      cause,
      metadata: { oldest_generation: String(engine.retainedSnapshots()[0]?.generation ?? current), current_generation: String(current) },
    });
  if (!Number.isSafeInteger(generation) || generation < 0)
    throw notHeld(`generation ${generation} is not a committed generation of ${source.meta.projectId}`);
  try {
    return engine.snapshotAt(generation).state;
  } catch (e) {
    if (isStateError(e, "SNAPSHOT_NOT_FOUND")) throw notHeld(e.message, e);
    throw isStateError(e) ? new StateError(e.code, e.message, { field: "at_generation", cause: e }) : e;
  }
}
