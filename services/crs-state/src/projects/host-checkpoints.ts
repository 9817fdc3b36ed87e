/**
 * Durable named checkpoints of the store host: a state document filed under the project's uid
 * and the checkpoint id. Taking one does not move the generation; restoring one is a journaled
 * mutation like any other.
 */

import { fromDocument, isStateError, isUnsupportedDocument, toDocument, type ProjectState } from "@crs/domain/state";
import type { StoreOptions } from "../config/store-options.js";
import { CrsStateError, formatUnsupported } from "../errors.js";
import { CHECKPOINT_FORMAT, decodeCheckpoint, encodeCheckpoint, type CheckpointRecord } from "../snapshot/checkpoint-record.js";
import type { StoreOp } from "../store/project-store.js";
import { CheckpointCounts } from "./checkpoint-counts.js";
import type { LoadedProject } from "./loaded-project.js";
import type { CheckpointHost, CheckpointInfo, CreatedCheckpoint, MutationOutcome, MutationRequest, ProjectHeader } from "./project-host.js";
import { notFound as projectNotFound } from "./host-checks.js";
import { requireValidId } from "./project-ids.js";
import type { StoreHost } from "./store-host.js";
import { replayOf } from "./replayed-answer.js";

function info(cp: CheckpointRecord, bytes: Uint8Array): CheckpointInfo {
  return {
    checkpointId: cp.checkpointId,
    generation: cp.generation,
    createdAt: cp.createdAt,
    sizeBytes: bytes.length,
    damaged: false,
    // The record reads, but its state document is one only another server restores.
    unsupportedFormat: isUnsupportedDocument(cp.document),
  };
}

// A listing row. A checkpoint whose record does not decode, damaged or newer, has fields that
// cannot be trusted, so only what the store itself knows of it (id and size) is reported.
function listed(checkpointId: string, bytes: Uint8Array): CheckpointInfo {
  const d = decodeCheckpoint(bytes, checkpointId);
  if (d.ok) return info(d.value, bytes);
  const unsupported = d.fault === "unsupported";
  return { checkpointId, generation: 0, createdAt: 0, sizeBytes: bytes.length, damaged: !unsupported, unsupportedFormat: unsupported };
}

function corrupted(projectId: string, checkpointId: string, detail: string, cause?: unknown): CrsStateError {
  return new CrsStateError(
    "CHECKPOINT_CORRUPTED",
    `checkpoint ${checkpointId} of project ${projectId} ${detail}; the project serves on, and DeleteCheckpoint removes it`,
    { checkpointId, projectId },
    cause === undefined ? {} : { cause },
  );
}

function notFound(projectId: string, checkpointId: string): CrsStateError {
  return new CrsStateError("CHECKPOINT_NOT_FOUND", `project ${projectId} has no checkpoint ${checkpointId}`, {
    field: "checkpoint_id",
    checkpointId,
  });
}

/** {@link CheckpointHost} of a {@link StoreHost}. */
export class HostCheckpoints implements CheckpointHost {
  private readonly counts: CheckpointCounts;
  private readonly maxPerProject: number;

  /** Serves the checkpoints of `host`'s projects, at most `maxCheckpointsPerProject` each. */
  constructor(
    private readonly host: StoreHost,
    opts: Pick<StoreOptions, "maxCheckpointsPerProject" | "maxLoadedProjects">,
  ) {
    this.maxPerProject = opts.maxCheckpointsPerProject;
    // Counts of the projects that could be in memory; a project's count dropped is counted again.
    this.counts = new CheckpointCounts(host.backing, opts.maxLoadedProjects);
  }

  /** See {@link CheckpointHost.create}. */
  async create(projectId: string, opts: { checkpointId?: string; expectedUid?: string }): Promise<CreatedCheckpoint> {
    const p = await this.host.project(projectId, opts.expectedUid);
    const state = p.committed;
    const header = p.header();
    const checkpointId =
      opts.checkpointId === undefined || opts.checkpointId === ""
        ? `checkpoint-${state.generation}`
        : requireValidId(opts.checkpointId, "checkpoint_id");
    const uid = p.meta.projectUid;
    // Under the project's lock, the count read here is the one this write moves: concurrent creates
    // are counted one after another, a checkpoint delete in between is seen, and a project delete
    // is either before (PROJECT_NOT_FOUND) or after (it purges this checkpoint).
    return this.underProjectLock(projectId, uid, async () => {
      this.host.assertWritable();
      if ((await this.host.backing.getCheckpoint(uid, checkpointId)) !== undefined) {
        throw new CrsStateError("CHECKPOINT_EXISTS", `project ${projectId} already has checkpoint ${checkpointId}`, {
          field: "checkpoint_id",
          checkpointId,
        });
      }
      const held = await this.counts.of(uid);
      if (held >= this.maxPerProject) {
        throw new CrsStateError(
          "CHECKPOINT_LIMIT",
          `project ${projectId} holds ${held} checkpoints, the most this server keeps per project ` +
            `(CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT=${this.maxPerProject}); delete one to make room`,
          { limit: String(this.maxPerProject), projectId },
        );
      }
      const cp: CheckpointRecord = {
        format: CHECKPOINT_FORMAT,
        checkpointId,
        generation: state.generation,
        createdAt: this.host.clock(),
        document: toDocument(state),
      };
      const bytes = encodeCheckpoint(cp);
      await this.write(uid, [{ op: "putCheckpoint", projectUid: uid, checkpointId, head: bytes }]);
      this.counts.changed(uid, 1);
      return { ...info(cp, bytes), header };
    });
  }

  /** See {@link CheckpointHost.list}. */
  async list(projectId: string, opts: { expectedUid?: string; after?: string; limit?: number } = {}): Promise<CheckpointInfo[]> {
    const p = await this.host.project(projectId, opts.expectedUid);
    const { after, limit } = opts;
    const rows = await this.host.backing.listCheckpoints(p.meta.projectUid, {
      ...(after === undefined ? {} : { after }),
      ...(limit === undefined ? {} : { limit }),
    });
    // One checkpoint that does not read never hides the others: it is listed with its flag set.
    return rows.map((row) => listed(row.checkpointId, row.head));
  }

  /** See {@link CheckpointHost.get}. */
  async get(
    projectId: string,
    checkpointId: string,
    opts: { expectedUid?: string } = {},
  ): Promise<CheckpointInfo & { readonly header: ProjectHeader }> {
    const p = await this.host.project(projectId, opts.expectedUid);
    const { cp, bytes } = await this.load(p, checkpointId);
    // The header of the incarnation read, even when the id was deleted and created again meanwhile.
    return { ...info(cp, bytes), header: p.header() };
  }

  /** See {@link CheckpointHost.delete}. */
  async delete(projectId: string, checkpointId: string, opts: { expectedUid?: string } = {}): Promise<ProjectHeader> {
    const p = await this.host.project(projectId, opts.expectedUid);
    requireValidId(checkpointId, "checkpoint_id");
    const uid = p.meta.projectUid;
    return this.underProjectLock(projectId, uid, async () => {
      this.host.assertWritable();
      // Only presence is checked, never the content: a damaged checkpoint is deleted like any other.
      if ((await this.host.backing.getCheckpoint(uid, checkpointId)) === undefined) throw notFound(projectId, checkpointId);
      await this.write(uid, [{ op: "deleteCheckpoint", projectUid: uid, checkpointId }]);
      this.counts.changed(uid, -1);
      return p.header();
    });
  }

  /** See {@link CheckpointHost.restore}. */
  async restore(
    projectId: string,
    checkpointId: string,
    req: MutationRequest,
    answer: (header: ProjectHeader, restoredFrom: number) => Uint8Array,
  ): Promise<MutationOutcome> {
    const p = await this.host.project(projectId, req.expectedUid);
    // A retry answers as the first call did, even once the checkpoint is gone.
    const replay = replayOf(p, req);
    if (replay !== undefined) return replay;
    const state = await this.stateOf(p, checkpointId);
    return this.host.mutate(
      projectId,
      req,
      (engine) => engine.restore({ id: checkpointId, generation: state.generation, createdAt: this.host.clock(), state }),
      (_result, header) => answer(header, state.generation),
    );
  }

  /** @internal The state a checkpoint holds; CHECKPOINT_NOT_FOUND, CHECKPOINT_CORRUPTED, FORMAT_UNSUPPORTED. */
  async stateOf(p: LoadedProject, checkpointId: string): Promise<ProjectState> {
    const { cp } = await this.load(p, checkpointId);
    try {
      return fromDocument(cp.document, p.committed.config);
    } catch (e) {
      // A document a newer server wrote is intact: it needs that server, not a restore from elsewhere.
      if (isStateError(e, "UNSUPPORTED_FORMAT")) throw formatUnsupported(p.meta.projectId, `checkpoint ${checkpointId}`, e.message);
      throw corrupted(p.meta.projectId, checkpointId, `does not import: ${(e as Error).message}`, e);
    }
  }

  // Under the lock a project delete holds, once the project is still incarnation `uid`: a checkpoint
  // written after a delete's purge of the project's keys would stay on disk for good.
  private underProjectLock<T>(projectId: string, uid: string, fn: () => Promise<T>): Promise<T> {
    return this.host.locks.run(projectId, async () => {
      if ((await this.host.project(projectId, undefined)).meta.projectUid !== uid) throw projectNotFound(projectId);
      return fn();
    });
  }

  // A failed write may or may not have landed: the project's count is read from the store again.
  private async write(projectUid: string, ops: readonly StoreOp[]): Promise<void> {
    try {
      await this.host.committer.submit(ops);
    } catch (e) {
      this.counts.forget(projectUid);
      throw e;
    }
  }

  private async load(p: LoadedProject, checkpointId: string): Promise<{ cp: CheckpointRecord; bytes: Uint8Array }> {
    requireValidId(checkpointId, "checkpoint_id");
    const stored = await this.host.backing.getCheckpoint(p.meta.projectUid, checkpointId);
    if (stored === undefined) throw notFound(p.meta.projectId, checkpointId);
    return { cp: this.decode(p, checkpointId, stored.head), bytes: stored.head };
  }

  private decode(p: LoadedProject, checkpointId: string, bytes: Uint8Array): CheckpointRecord {
    const d = decodeCheckpoint(bytes, checkpointId);
    if (!d.ok && d.fault === "unsupported") throw formatUnsupported(p.meta.projectId, `checkpoint ${checkpointId}`, d.reason);
    if (!d.ok) throw corrupted(p.meta.projectId, checkpointId, `is damaged: ${d.reason}`);
    return d.value;
  }
}
