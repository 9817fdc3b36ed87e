/** One row of a project listing: the catalogue entry plus where the project stands, loaded or not. */

import type { ProjectStore } from "../store/project-store.js";
import type { LoadedProject } from "./loaded-project.js";
import type { ProjectPage, ProjectSummary } from "./project-host.js";
import { pageTokenAfter } from "./project-ids.js";
import { decodeMeta, type ProjectMeta } from "./project-meta.js";
import { oldestSnapshotGeneration } from "./retained-snapshots.js";
import { storedHead } from "./stored-head.js";

/** The listing row of a project in memory, from its committed state. */
export function loadedSummary(meta: ProjectMeta, loaded: LoadedProject): ProjectSummary {
  const committed = loaded.committedEngine().snapshot();
  return {
    projectId: meta.projectId,
    projectUid: meta.projectUid,
    createdAt: meta.createdAt,
    generation: committed.generation,
    lastChangeAt: committed.createdAt,
    loaded: true,
    state: "ok",
    storage: {
      oldestSnapshotGeneration: oldestSnapshotGeneration(loaded.view()),
      lastSnapshotGeneration: loaded.lastSnapshotGeneration,
      journalRecords: loaded.journalRecords,
      journalBytes: loaded.journalBytes,
    },
  };
}

/**
 * The listing row of a stored project. A loaded project answers from memory; any other from its
 * newest journal record, without loading it. A damaged catalogue entry or newest record lists
 * generation 0 (loading the project reports the damage); `lost` marks a project the host already
 * holds as unrecoverable.
 */
export async function projectSummary(
  store: ProjectStore,
  row: { projectId: string; bytes: Uint8Array },
  loaded: LoadedProject | undefined,
  lost: boolean,
): Promise<ProjectSummary> {
  const state = lost ? "data_loss" : "ok";
  const meta = decodeMeta(row.bytes, row.projectId);
  if (!meta.ok) return { projectId: row.projectId, projectUid: "", generation: 0, createdAt: 0, lastChangeAt: 0, loaded: false, state };
  if (loaded !== undefined) return loadedSummary(meta.value, loaded);
  const head = await storedHead(store, meta.value);
  return {
    projectId: row.projectId,
    projectUid: meta.value.projectUid,
    createdAt: meta.value.createdAt,
    generation: head?.generation ?? 0,
    lastChangeAt: head?.lastChangeAt ?? 0,
    loaded: false,
    state,
  };
}

/**
 * A page of the loaded projects after `after`, from their ids in ascending order. They are all in
 * memory, so the page is cut from them and not from the catalogue: it is as full as the loaded
 * projects after `after` allow, and its token is "" exactly when none follows.
 */
export function loadedPage(
  ids: readonly string[],
  loadedOf: (id: string) => LoadedProject | undefined,
  after: string | undefined,
  pageSize: number,
): ProjectPage {
  const loaded: LoadedProject[] = [];
  for (const id of ids) {
    const p = loadedOf(id);
    if (p === undefined || p.deleted || (after !== undefined && id <= after)) continue;
    loaded.push(p);
    if (loaded.length > pageSize) break;
  }
  const projects = loaded.slice(0, pageSize).map((p) => loadedSummary(p.meta, p));
  const last = projects.at(-1);
  return { projects, nextPageToken: loaded.length > pageSize && last !== undefined ? pageTokenAfter(last.projectId, true) : "" };
}
