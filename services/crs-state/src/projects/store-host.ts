/** The project host over any {@link ProjectStore}, in memory or on classic-level: the {@link ProjectHost} the service runs. */

import { StateEngine, resolveConfig, type Mutation, type ProjectState } from "@crs/domain/state";
import { STORE_DEFAULTS, type StoreOptions } from "../config/store-options.js";
import { CrsStateError, formatUnsupported, isCrsStateError } from "../errors.js";
import { GroupCommitter } from "../journal/group-commit.js";
import type { StoredRequest } from "../journal/record.js";
import type { ProjectStore } from "../store/project-store.js";
import { CommitFeed, committed } from "./commit-feed.js";
import { checkGeneration, checkUid, notFound, stateAt } from "./host-checks.js";
import { HostCheckpoints } from "./host-checkpoints.js";
import { LoadedProject } from "./loaded-project.js";
import { ProjectCache, type LostProject, type RefusedProject } from "./project-cache.js";
import type {
  CreatedProject,
  CreateProjectOptions,
  ForkSource,
  ImportHost,
  MutationOutcome,
  MutationRequest,
  PageRequest,
  ProjectHeader,
  ProjectHost,
  ProjectPage,
  ProjectStatus,
  ProjectView,
  ReadOptions,
} from "./project-host.js";
import { idFromPageToken, pageTokenAfter, requireValidId } from "./project-ids.js";
import { decodeMeta, encodeMeta, type ProjectMeta } from "./project-meta.js";
import { existingProject, newProjectMeta } from "./created-project.js";
import { recoverProject } from "./recover-project.js";
import { lostStatus } from "./stored-head.js";
import { RequestTable } from "./request-table.js";
import { replayOf } from "./replayed-answer.js";
import { KeyedLock } from "./keyed-lock.js";
import { forkedProject } from "./forked-project.js";
import { HostBackups } from "./host-backups.js";
import { HostImports } from "./host-imports.js";
import { loadedPage, projectSummary } from "./project-summary.js";
import { countingObserver, zeroCounters, type HostCounters, type StoreHostOptions } from "./store-host-options.js";

/** {@link ProjectHost} over a {@link ProjectStore}. */
export class StoreHost implements ProjectHost {
  /** Durable named checkpoints. */
  readonly checkpoints: HostCheckpoints;
  /** See {@link ProjectHost.imports}. */
  readonly imports: ImportHost = new HostImports(this);
  /** See {@link ProjectHost.backups}. */
  readonly backups: HostBackups;
  /** See {@link ProjectHost.commits}. */
  readonly commits = new CommitFeed();
  /** Counters for metrics. */
  readonly counters: HostCounters = zeroCounters();
  /** @internal the committer every write goes through. */
  readonly committer: GroupCommitter;
  private readonly opts: Omit<StoreOptions, "dataDir">;
  private readonly now: () => number;
  private readonly cache: ProjectCache;
  /** @internal Held by create, delete and fork of a project id, and by its checkpoint writes. */
  readonly locks = new KeyedLock();
  private writable = true;
  private closed = false;
  private probing: NodeJS.Timeout | undefined;
  private probeRun: Promise<void> | undefined;
  private readonly idleTimer: NodeJS.Timeout;

  /** Serves projects from `store`, which the host owns from now on (closing the host closes it). */
  constructor(
    private readonly store: ProjectStore,
    options: StoreHostOptions = {},
  ) {
    const { now, events, ...rest } = options;
    this.opts = { ...STORE_DEFAULTS, ...rest };
    this.now = now ?? Date.now;
    this.committer = new GroupCommitter(store, (r) => {
      if (r.error !== undefined) this.onWriteFailure(r.error);
      events?.batch?.(r);
    });
    this.notice = events?.notice ?? (() => undefined);
    const observe = countingObserver(this.counters, (event, fields) => this.notice(event, fields));
    this.cache = new ProjectCache((id) => this.loadProject(id), this.opts.maxLoadedProjects, this.now, observe);
    [this.checkpoints, this.backups] = [new HostCheckpoints(this, this.opts), new HostBackups(this, this.opts)];
    this.idleTimer = setInterval(
      () => this.cache.unloadIdleSince(this.now() - this.opts.idleUnloadMs),
      Math.max(1000, Math.floor(this.opts.idleUnloadMs / 4)),
    );
    this.idleTimer.unref();
  }

  private readonly notice: (event: string, fields: Record<string, string | number>) => void;

  /** See {@link ProjectHost.create}. */
  async create(projectId: string, opts: CreateProjectOptions): Promise<CreatedProject> {
    requireValidId(projectId, "project_id");
    const config = resolveConfig(opts.config ?? {});
    return this.locks.run(projectId, async () => {
      // A retried create is answered from what is stored, even while the disk cannot take writes.
      const existing = await this.readMeta(projectId);
      if (existing !== undefined) return existingProject(existing, opts);
      this.assertWritable();
      const { meta, ...created } = newProjectMeta(projectId, opts, this.now());
      await this.committer.submit([{ op: "putMeta", projectId, bytes: encodeMeta(meta) }]);
      this.adopt(meta, new StateEngine({ config, now: this.now }), 0);
      return created;
    });
  }

  /** See {@link ProjectHost.read}. */
  async read<T>(projectId: string, fn: (view: ProjectView) => T, opts: ReadOptions = {}): Promise<T> {
    const p = this.loadedNow(projectId, opts.expectedUid) ?? (await this.project(projectId, opts.expectedUid));
    return fn(p.view());
  }

  /** See {@link ProjectHost.mutate}. */
  mutate<R>(
    projectId: string,
    req: MutationRequest,
    body: (engine: StateEngine) => Mutation<R>,
    answer: (result: R, header: ProjectHeader) => Uint8Array,
  ): Promise<MutationOutcome> {
    // Not an async function: a loaded project's mutation hands back the promise of its commit
    // itself, without a wrapping promise and the turns of the event loop it costs.
    try {
      const p = this.loadedNow(projectId, req.expectedUid);
      if (p === undefined) return this.project(projectId, req.expectedUid).then((q) => this.mutateLoaded(q, req, body, answer));
      return this.mutateLoaded(p, req, body, answer);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  // Throws synchronously for what fails before the mutation is submitted.
  private mutateLoaded<R>(
    p: LoadedProject,
    req: MutationRequest,
    body: (engine: StateEngine) => Mutation<R>,
    answer: (result: R, header: ProjectHeader) => Uint8Array,
  ): Promise<MutationOutcome> {
    if (req.validateOnly === true) return Promise.resolve(this.dryRun(p, req, body, answer));
    const fingerprint = req.fingerprint ?? "";
    const replay = replayOf(p, req, fingerprint);
    if (replay !== undefined) return replay;
    const requestId = req.requestId ?? "";
    this.assertWritable();
    checkGeneration(req.expectedGeneration, p.engine.generation);
    const m = body(p.engine);
    const header: ProjectHeader = { projectId: p.meta.projectId, projectUid: p.meta.projectUid, generation: m.generation, replayed: false };
    const bytes = answer(m.result, header);
    if (m.event === undefined && requestId === "") {
      // Nothing to journal, but the answer may rest on writes still in flight: it is given only
      // once they are durable, and fails with them (it would name a generation never stored).
      return p.durable().then(() => {
        this.assertLoaded(p);
        return { answer: bytes, replayed: false, header };
      });
    }
    const request: StoredRequest | null =
      requestId === ""
        ? null
        : {
            requestId,
            method: req.method,
            fingerprint,
            answer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
            generation: m.generation,
          };
    const prepared = p.prepare(m.event, request);
    const write = this.committer.submit(prepared.ops, p.chain);
    write.catch(() => this.cache.evict(p));
    return p.track(prepared, request, write, () => {
      this.commits.publish(header.projectId, committed(header, prepared.snapshot, m.event));
      return { answer: bytes, replayed: false, header };
    });
  }

  private dryRun<R>(
    p: LoadedProject,
    req: MutationRequest,
    body: (engine: StateEngine) => Mutation<R>,
    answer: (result: R, header: ProjectHeader) => Uint8Array,
  ): MutationOutcome {
    const scratch = new StateEngine({ now: this.now, initial: p.committed });
    checkGeneration(req.expectedGeneration, scratch.generation);
    const m = body(scratch);
    const header = p.header();
    return { answer: answer(m.result, header), replayed: false, header };
  }

  /** See {@link ProjectHost.delete}. */
  async delete(projectId: string, opts: { expectedUid?: string }): Promise<void> {
    requireValidId(projectId, "project_id");
    await this.locks.run(projectId, async () => {
      this.assertWritable();
      const meta = await this.readMeta(projectId);
      if (meta === undefined) throw notFound(projectId);
      checkUid(meta, opts.expectedUid);
      const p = this.cache.peek(projectId);
      if (p !== undefined) {
        p.deleted = true;
        await p.settled();
      }
      try {
        await this.committer.submit([{ op: "deleteProject", projectId, projectUid: meta.projectUid }]);
      } catch (e) {
        // The project still exists on disk: drop the copy marked deleted so the next call reloads it.
        if (p !== undefined) this.cache.evict(p);
        throw e;
      }
      this.cache.forget(projectId);
      this.commits.publish(projectId, { type: "deleted", projectUid: meta.projectUid });
    });
  }

  /** See {@link ProjectHost.list}. */
  async list(page: PageRequest): Promise<ProjectPage> {
    if (!Number.isSafeInteger(page.pageSize) || page.pageSize < 1 || page.pageSize > 1000) {
      throw new CrsStateError("INVALID_ARGUMENT", "page_size must be between 1 and 1000", { field: "page_size" });
    }
    const openOnly = page.openOnly === true;
    const after = page.pageToken === undefined || page.pageToken === "" ? undefined : idFromPageToken(page.pageToken, openOnly);
    if (openOnly) return loadedPage(this.cache.loadedIds(), (id) => this.cache.peek(id), after, page.pageSize);
    const rows = await this.store.listMeta({ after, limit: page.pageSize + 1 });
    const projects = await Promise.all(
      rows
        .slice(0, page.pageSize)
        .map((row) => projectSummary(this.store, row, this.cache.peek(row.projectId), this.cache.lost(row.projectId) !== undefined)),
    );
    const last = projects.at(-1);
    return { projects, nextPageToken: rows.length > page.pageSize && last !== undefined ? pageTokenAfter(last.projectId) : "" };
  }

  /** See {@link ProjectHost.fork}. */
  async fork(sourceId: string, targetId: string, from: ForkSource, opts: { expectedUid?: string } = {}): Promise<ProjectHeader> {
    requireValidId(targetId, "target_project_id");
    // The uid is checked on the incarnation the state is copied from, not on an earlier read.
    const source = await this.project(sourceId, opts.expectedUid);
    const state = "checkpointId" in from ? await this.checkpoints.stateOf(source, from.checkpointId) : stateAt(source, from.generation);
    return this.locks.run(targetId, () => this.createHolding(targetId, "target_project_id", state));
  }

  /** @internal Under `projectId`'s lock: a new project holding `state`, its generation included; PROJECT_EXISTS naming `field`. */
  async createHolding(projectId: string, field: string, state: ProjectState): Promise<ProjectHeader> {
    this.assertWritable();
    if ((await this.readMeta(projectId)) !== undefined)
      throw new CrsStateError("PROJECT_EXISTS", `project ${projectId} already exists`, { field, projectId });
    // The catalogue keeps the limits the project starts with; its snapshot carries them too.
    const { meta, snapshot, metaBytes } = forkedProject(projectId, state.config, state, this.now());
    await this.committer.submit([
      { op: "putSnapshot", projectUid: meta.projectUid, seq: 0, bytes: snapshot },
      { op: "putMeta", projectId, bytes: metaBytes },
    ]);
    return this.adopt(meta, new StateEngine({ now: this.now, initial: state }), 0, [0]).header();
  }

  /** See {@link ProjectHost.status}. */
  async status(projectId: string): Promise<ProjectStatus> {
    requireValidId(projectId, "project_id");
    const wasLoaded = this.cache.peek(projectId) !== undefined;
    try {
      const p = await this.project(projectId, undefined);
      return {
        header: p.header(),
        loaded: wasLoaded,
        state: "ok",
        journalRecords: p.journalRecords,
        journalBytes: p.journalBytes,
        lastSnapshotGeneration: p.lastSnapshotGeneration,
        lastSequence: p.lastSeq,
        corruptedRecordsSkipped: p.recordsSkipped,
      };
    } catch (e) {
      const lost = this.cache.lost(projectId);
      if (lost === undefined) throw e;
      return lostStatus(this.store, projectId, lost.meta);
    }
  }

  /** How many projects are held in DATA_LOSS (recovery refused their damage). */
  lostProjectCount(): number {
    return this.cache.lostCount();
  }

  /** See {@link ProjectHost.loadedProjectIds}. */
  loadedProjectIds(): string[] {
    return this.cache.loadedIds();
  }

  /** See {@link ProjectHost.serving}. */
  serving(): boolean {
    return this.writable && !this.closed;
  }

  /** See {@link ProjectHost.close}. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.idleTimer);
    clearTimeout(this.probing);
    await this.probeRun;
    await this.committer.flushed();
    await this.store.close();
  }

  // The loaded project, checked for uid, when it is in memory and the host open; undefined sends
  // the caller to project(), which loads it or says why not.
  private loadedNow(projectId: string, expectedUid: string | undefined): LoadedProject | undefined {
    if (this.closed) return undefined;
    const p = this.cache.use(projectId);
    if (p === undefined || p.deleted) return undefined;
    checkUid(p.meta, expectedUid);
    return p;
  }

  /** @internal The loaded project, checked for deletion and uid. */
  async project(projectId: string, expectedUid: string | undefined): Promise<LoadedProject> {
    requireValidId(projectId, "project_id");
    if (this.closed) throw new CrsStateError("STORE_UNAVAILABLE", "store: closed");
    const p = await this.cache.get(projectId);
    this.assertLoaded(p);
    checkUid(p.meta, expectedUid);
    return p;
  }

  /** @internal STORE_UNAVAILABLE while the store cannot write. */
  assertWritable(): void {
    if (this.closed) throw new CrsStateError("STORE_UNAVAILABLE", "store: closed");
    if (!this.writable)
      throw new CrsStateError("STORE_UNAVAILABLE", "store: the last write failed; waiting for the disk to accept writes again");
  }

  /** @internal The store the checkpoints live in. */
  get backing(): ProjectStore {
    return this.store;
  }

  /** @internal The host clock. */
  get clock(): () => number {
    return this.now;
  }

  private assertLoaded(p: LoadedProject): void {
    if (p.deleted) throw notFound(p.meta.projectId);
  }

  private adopt(meta: ProjectMeta, engine: StateEngine, lastSeq: number, snapshotSeqs: number[] = []): LoadedProject {
    const requests = new RequestTable(this.opts.requestIdRetention);
    const baseGeneration = snapshotSeqs.length > 0 ? engine.generation : 0;
    const p = new LoadedProject(
      meta,
      {
        engine,
        requests,
        lastSeq,
        snapshotSeqs,
        baseGeneration,
        journalRecords: 0,
        journalBytes: 0,
        corruptSnapshots: 0,
        repair: undefined,
      },
      this.now,
    );
    p.policy = { everyRecords: this.opts.snapshotEveryRecords, everyBytes: this.opts.snapshotEveryBytes };
    this.cache.put(p);
    return p;
  }

  private async readMeta(projectId: string): Promise<ProjectMeta | undefined> {
    const row = await this.store.getMeta(projectId);
    if (row === undefined) return undefined;
    const meta = decodeMeta(row.bytes, projectId);
    if (!meta.ok && meta.fault === "unsupported") throw formatUnsupported(projectId, "metadata", meta.reason);
    if (!meta.ok) throw new CrsStateError("PROJECT_DATA_LOSS", `project ${projectId}: metadata is damaged: ${meta.reason}`, { projectId });
    return meta.value;
  }

  private async loadProject(projectId: string): Promise<LoadedProject | LostProject | RefusedProject> {
    let meta: ProjectMeta | undefined;
    try {
      meta = await this.readMeta(projectId);
      if (meta === undefined) throw notFound(projectId);
      const r = await recoverProject(this.store, meta, {
        now: this.now,
        requestIdRetention: this.opts.requestIdRetention,
        skipCorrupted: this.opts.skipCorrupted,
      });
      this.counters.corruptSnapshots += r.corruptSnapshots;
      if (r.corruptSnapshots > 0) this.notice("snapshot-passed-over", { projectId, snapshots: r.corruptSnapshots });
      if (r.repair !== undefined) {
        if (r.repair.action === "cut-torn-tail") this.counters.tornTailsCut++;
        else {
          this.counters.corruptionsSkipped++;
          this.counters.recordsSkipped += r.repair.records;
        }
        this.notice(r.repair.action, { projectId, fromSeq: r.repair.fromSeq, records: r.repair.records, reason: r.repair.reason });
      }
      const p = new LoadedProject(meta, r, this.now);
      p.policy = { everyRecords: this.opts.snapshotEveryRecords, everyBytes: this.opts.snapshotEveryBytes };
      return p;
    } catch (e) {
      if (isCrsStateError(e, "FORMAT_UNSUPPORTED")) return { refused: e };
      if (isCrsStateError(e, "PROJECT_DATA_LOSS") || isCrsStateError(e, "JOURNAL_CORRUPTED") || isCrsStateError(e, "SNAPSHOT_CORRUPTED")) {
        this.notice("project-data-loss", { projectId, reason: (e as Error).message });
        const error = isCrsStateError(e, "PROJECT_DATA_LOSS")
          ? e
          : new CrsStateError(
              "PROJECT_DATA_LOSS",
              `project ${projectId} cannot be recovered: ${(e as Error).message}`,
              { projectId, ...(e as CrsStateError).metadata },
              { cause: e },
            );
        return { meta, error };
      }
      throw e;
    }
  }

  private onWriteFailure(error: unknown): void {
    this.counters.writeFailures++;
    if (!this.writable) return;
    this.writable = false;
    this.notice("store-not-writable", { reason: error instanceof Error ? error.message : String(error) });
    this.probeLater();
  }

  // One probe at a time, the next only after the last failed: a probe closes and reopens the
  // database, and two at once would close it under each other.
  private probeLater(): void {
    if (this.closed) return;
    this.probing = setTimeout(() => {
      this.probing = undefined;
      this.probeRun = this.store
        .probe()
        .then(
          () => {
            this.writable = true;
            this.notice("store-writable", {});
          },
          () => this.probeLater(),
        )
        .finally(() => {
          this.probeRun = undefined;
        });
    }, this.opts.probeIntervalMs);
    this.probing.unref();
  }
}
