/**
 * Writes of checkpoint-shaped records (checkpoints, backups): under the lock a project delete
 * holds, once the project is still the incarnation written for, and with the shelf's count
 * forgotten when a write fails.
 */

import { isCrsStateError } from "../errors.js";
import type { StoreOp } from "../store/project-store.js";
import type { CheckpointCounts } from "./checkpoint-counts.js";
import { notFound } from "./host-checks.js";
import type { LoadedProject } from "./loaded-project.js";
import type { StoreHost } from "./store-host.js";

/**
 * Runs `fn` under the project's lock, once the project is still incarnation `uid`: a record
 * written after a delete's purge of the project's keys would stay on disk for good.
 */
export function underProjectLock<T>(host: StoreHost, projectId: string, uid: string, fn: () => Promise<T>): Promise<T> {
  return host.locks.run(projectId, async () => {
    if ((await host.project(projectId, undefined)).meta.projectUid !== uid) throw notFound(projectId);
    return fn();
  });
}

/** Submits `ops`; a failed write may or may not have landed, so the project's count is read from the store again. */
export async function countedWrite(host: StoreHost, counts: CheckpointCounts, projectUid: string, ops: readonly StoreOp[]): Promise<void> {
  try {
    await host.committer.submit(ops);
  } catch (e) {
    counts.forget(projectUid);
    throw e;
  }
}

/** The project when it exists; undefined when it does not (and no uid was expected of it). */
export async function projectIfExists(
  host: StoreHost,
  projectId: string,
  expectedUid: string | undefined,
): Promise<LoadedProject | undefined> {
  try {
    return await host.project(projectId, expectedUid);
  } catch (e) {
    if (isCrsStateError(e, "PROJECT_NOT_FOUND") && expectedUid === undefined) return undefined;
    throw e;
  }
}
