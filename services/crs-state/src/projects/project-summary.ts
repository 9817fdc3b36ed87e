/** One row of a project listing, read from the project's stored metadata. */

import type { ProjectSummary } from "./project-host.js";
import { decodeMeta } from "./project-meta.js";

/** The listing row of a stored project; `loadedGeneration` is its committed generation when loaded, else undefined (listed as 0). */
export function projectSummary(row: { projectId: string; bytes: Uint8Array }, loadedGeneration: number | undefined): ProjectSummary {
  const meta = decodeMeta(row.bytes, row.projectId);
  if (!meta.ok) return { projectId: row.projectId, projectUid: "", generation: 0, createdAt: 0, loaded: false };
  return {
    projectId: row.projectId,
    projectUid: meta.value.projectUid,
    generation: loadedGeneration ?? 0,
    createdAt: meta.value.createdAt,
    loaded: loadedGeneration !== undefined,
  };
}
