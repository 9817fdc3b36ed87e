/** The first records of a project forked from another's state: its metadata and a snapshot at sequence 0. */

import { type ProjectState, toDocument } from "@crs/domain/state";
import { encodeSnapshot, STATE_SNAPSHOT_FORMAT } from "../snapshot/state-snapshot.js";
import { newUid } from "./host-checks.js";
import { encodeMeta, PROJECT_META_FORMAT, type ProjectMeta } from "./project-meta.js";

/** Builds the metadata of a new fork named `targetId` and its sequence-0 snapshot holding `state`. */
export function forkedProject(
  targetId: string,
  config: ProjectMeta["config"],
  state: ProjectState,
  now: number,
): { meta: ProjectMeta; snapshot: Uint8Array; metaBytes: Uint8Array } {
  const meta: ProjectMeta = {
    format: PROJECT_META_FORMAT,
    projectId: targetId,
    projectUid: newUid(),
    createdAt: now,
    config,
    createRequestId: "",
    baseGeneration: state.generation,
  };
  const snapshot = encodeSnapshot({
    format: STATE_SNAPSHOT_FORMAT,
    projectUid: meta.projectUid,
    seq: 0,
    takenAt: now,
    document: toDocument(state),
    requests: [],
  });
  return { meta, snapshot, metaBytes: encodeMeta(meta) };
}
