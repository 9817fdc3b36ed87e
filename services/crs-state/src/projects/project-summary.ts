/** One row of a project listing: the catalogue entry plus where the project stands, loaded or not. */

import type { ProjectStore } from "../store/project-store.js";
import type { LoadedProject } from "./loaded-project.js";
import type { ProjectSummary } from "./project-host.js";
import { decodeMeta } from "./project-meta.js";
import { storedHead } from "./stored-head.js";

/**
 * The listing row of a stored project. A loaded project answers from memory; any other from its
 * newest journal record, without loading it. A damaged catalogue entry or newest record lists
 * generation 0 (loading the project reports the damage).
 */
export async function projectSummary(
  store: ProjectStore,
  row: { projectId: string; bytes: Uint8Array },
  loaded: LoadedProject | undefined,
): Promise<ProjectSummary> {
  const meta = decodeMeta(row.bytes, row.projectId);
  if (!meta.ok) return { projectId: row.projectId, projectUid: "", generation: 0, createdAt: 0, lastChangeAt: 0, loaded: false };
  const base = { projectId: row.projectId, projectUid: meta.value.projectUid, createdAt: meta.value.createdAt };
  if (loaded !== undefined) {
    const committed = loaded.committedEngine().snapshot();
    const storage = {
      lastSnapshotGeneration: loaded.lastSnapshotGeneration,
      journalRecords: loaded.journalRecords,
      journalBytes: loaded.journalBytes,
    };
    return { ...base, generation: committed.generation, lastChangeAt: committed.createdAt, loaded: true, storage };
  }
  const head = await storedHead(store, meta.value);
  return { ...base, generation: head?.generation ?? 0, lastChangeAt: head?.lastChangeAt ?? 0, loaded: false };
}
