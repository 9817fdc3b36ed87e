/**
 * Where a project that is not in memory stands, read from its newest journal record (one
 * record, no replay): the generation that record left and the time of its mutation.
 */

import { decodeRecord } from "../journal/record.js";
import { decodeSnapshot } from "../snapshot/state-snapshot.js";
import type { ProjectStore } from "../store/project-store.js";
import type { ProjectHost, ProjectStatus } from "./project-host.js";
import type { ProjectMeta } from "./project-meta.js";

/** The committed position of a stored project. */
export interface StoredHead {
  /** Generation of the last committed mutation. */
  readonly generation: number;
  /** Unix ms of that mutation (the creation time before the first one). */
  readonly lastChangeAt: number;
}

/**
 * The head of `meta`'s project on disk. Every journaled mutation's record carries the generation
 * it left (in its event, or in its stored request when it changed nothing), and the newest
 * snapshot's own record is kept beside it, so the newest record is enough. A project without
 * records is where it started (its base generation); only a catalogue entry written before the
 * base generation was kept falls back to its newest snapshot. Undefined when that record is
 * damaged: recovery decides what it means.
 */
export async function storedHead(store: ProjectStore, meta: ProjectMeta): Promise<StoredHead | undefined> {
  const last = await store.lastSeq(meta.projectUid);
  if (last > 0) {
    for await (const v of store.readJournal(meta.projectUid, last - 1)) {
      const r = decodeRecord(v.bytes, v.seq);
      if (!r.ok) return undefined;
      const generation = r.value.event?.generation ?? r.value.request?.generation;
      if (generation === undefined) return undefined;
      return { generation, lastChangeAt: r.value.event?.at ?? r.value.committedAt };
    }
  }
  if (last === 0 && meta.baseGeneration !== undefined) return { generation: meta.baseGeneration, lastChangeAt: meta.createdAt };
  const [newest] = await store.readSnapshots(meta.projectUid);
  if (newest === undefined) return { generation: 0, lastChangeAt: meta.createdAt };
  const s = decodeSnapshot(newest.bytes, newest.seq, meta.projectUid);
  return s.ok ? { generation: s.value.document.generation, lastChangeAt: s.value.takenAt } : undefined;
}

/**
 * What {@link ProjectHost.status} says of a project held in DATA_LOSS: its uid and the generation
 * its newest readable record names (as its listing row says), nothing of a journal it cannot read.
 */
export async function lostStatus(store: ProjectStore, projectId: string, meta: ProjectMeta | undefined): Promise<ProjectStatus> {
  const head = meta === undefined ? undefined : await storedHead(store, meta).catch(() => undefined);
  return {
    header: { projectId, projectUid: meta?.projectUid ?? "", generation: head?.generation ?? 0, replayed: false },
    loaded: false,
    state: "data_loss",
    journalRecords: 0,
    journalBytes: 0,
    lastSnapshotGeneration: 0,
    lastSequence: 0,
    corruptedRecordsSkipped: 0,
  };
}
