/**
 * Durable named checkpoints of the store host: a state document filed under the project's uid
 * and the checkpoint id. Taking one does not move the generation; restoring one is a journaled
 * mutation like any other.
 */

import { fromDocument, isStateError, toDocument, type ProjectState } from "@crs/domain/state";
import type { StoreOptions } from "../config/store-options.js";
import { CrsStateError, formatUnsupported } from "../errors.js";
import {
  checkpointSummary,
  decodeCheckpoint,
  encodeCheckpoint,
  summarizeCheckpoint,
  type CheckpointRecord,
  type CheckpointSummary,
} from "../snapshot/checkpoint-record.js";
import type { ListedCheckpoint, StoreOp } from "../store/project-store.js";
import { CheckpointCounts } from "./checkpoint-counts.js";
import type { LoadedProject } from "./loaded-project.js";
import type { CheckpointHost, CheckpointInfo, CreatedCheckpoint, MutationOutcome, MutationRequest, ProjectHeader } from "./project-host.js";
import { requireValidId } from "./project-ids.js";
import type { StoreHost } from "./store-host.js";
import { replayOf } from "./replayed-answer.js";
import { countedWrite, underProjectLock } from "./shelf-writes.js";

function info(s: CheckpointSummary): CheckpointInfo {
  const { checkpointId, generation, createdAt, sizeBytes } = s;
  // An unsupported document: the checkpoint reads, but only another server restores it.
  return { checkpointId, generation, createdAt, sizeBytes, damaged: false, unsupportedFormat: s.unsupportedDocument };
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
        checkpointId,
        generation: state.generation,
        createdAt: this.host.clock(),
        document: toDocument(state),
      };
      const { head, body } = encodeCheckpoint(cp);
      await this.write(uid, [{ op: "putCheckpoint", projectUid: uid, checkpointId, head, body }]);
      this.counts.changed(uid, 1);
      return { ...info(checkpointSummary(cp, head.length + body.length)), header };
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
    const out: CheckpointInfo[] = [];
    for (const row of rows) out.push(await this.listed(p.meta.projectUid, row));
    return out;
  }

  // A listing row, from the checkpoint's head alone. One whose head does not decode, damaged or
  // newer, never hides the others: it is listed by id and stored size, with its flag set, since
  // its other fields cannot be trusted. Only then is its body looked up, for that size.
  private async listed(projectUid: string, row: ListedCheckpoint): Promise<CheckpointInfo> {
    const { checkpointId, head } = row;
    const d = summarizeCheckpoint(head, checkpointId);
    if (d.ok) return info(d.value);
    const body = (await this.host.backing.getCheckpoint(projectUid, checkpointId))?.body;
    const unsupported = d.fault === "unsupported";
    const sizeBytes = head.length + (body?.length ?? 0);
    return { checkpointId, generation: 0, createdAt: 0, sizeBytes, damaged: !unsupported, unsupportedFormat: unsupported };
  }

  /** See {@link CheckpointHost.get}. */
  async get(
    projectId: string,
    checkpointId: string,
    opts: { expectedUid?: string } = {},
  ): Promise<CheckpointInfo & { readonly header: ProjectHeader }> {
    const p = await this.host.project(projectId, opts.expectedUid);
    const { summary } = await this.load(p, checkpointId);
    // The header of the incarnation read, even when the id was deleted and created again meanwhile.
    return { ...info(summary), header: p.header() };
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
    const { checkpoint } = await this.load(p, checkpointId);
    try {
      return fromDocument(checkpoint.document, p.committed.config);
    } catch (e) {
      // A document a newer server wrote is intact: it needs that server, not a restore from elsewhere.
      if (isStateError(e, "UNSUPPORTED_FORMAT")) throw formatUnsupported(p.meta.projectId, `checkpoint ${checkpointId}`, e.message);
      throw corrupted(p.meta.projectId, checkpointId, `does not import: ${(e as Error).message}`, e);
    }
  }

  private underProjectLock<T>(projectId: string, uid: string, fn: () => Promise<T>): Promise<T> {
    return underProjectLock(this.host, projectId, uid, fn);
  }

  private write(projectUid: string, ops: readonly StoreOp[]): Promise<void> {
    return countedWrite(this.host, this.counts, projectUid, ops);
  }

  // The whole checkpoint, head and body, checked: what get, restore and fork rely on.
  private async load(p: LoadedProject, checkpointId: string): Promise<{ checkpoint: CheckpointRecord; summary: CheckpointSummary }> {
    requireValidId(checkpointId, "checkpoint_id");
    const stored = await this.host.backing.getCheckpoint(p.meta.projectUid, checkpointId);
    if (stored === undefined) throw notFound(p.meta.projectId, checkpointId);
    const d = decodeCheckpoint(stored, checkpointId);
    if (!d.ok && d.fault === "unsupported") throw formatUnsupported(p.meta.projectId, `checkpoint ${checkpointId}`, d.reason);
    if (!d.ok) throw corrupted(p.meta.projectId, checkpointId, `is damaged: ${d.reason}`);
    return d.value;
  }
}
