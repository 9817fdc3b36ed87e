/**
 * One project in memory: the working engine (which may run ahead of the disk while its records
 * wait for their synced batch), the committed state reads are answered from, the remembered
 * request ids, and the journal bookkeeping (next sequence number, when to snapshot).
 */

import { SnapshotRing, StateEngine, toDocument, type ProjectState, type Snapshot, type StateEvent } from "@crs/domain/state";
import { JOURNAL_RECORD_FORMAT, encodeRecord, type StoredRequest } from "../journal/record.js";
import { STATE_SNAPSHOT_FORMAT, encodeSnapshot } from "../snapshot/state-snapshot.js";
import type { StoreOp } from "../store/project-store.js";
import type { ProjectHeader, ProjectView, ReadOnlyEngine } from "./project-host.js";
import type { ProjectMeta } from "./project-meta.js";
import type { RecoveredProject } from "./recover-project.js";
import type { RequestTable } from "./request-table.js";

let epochCounter = 0;

/** When a snapshot is due. */
export interface SnapshotPolicy {
  /** Records since the last snapshot. */
  readonly everyRecords: number;
  /** Bytes since the last snapshot. */
  readonly everyBytes: number;
}

/** A mutation's record, ready for the group committer. */
export interface PreparedCommit {
  /** Store operations (the journal record, and a snapshot when one is due). */
  readonly ops: StoreOp[];
  /** The working state after the mutation; becomes the committed state once the write is durable. */
  readonly state: ProjectState;
  /** The journal sequence number of the record. */
  readonly seq: number;
  /** The engine's snapshot of `state`; readable at its generation once the write is durable. */
  readonly snapshot: Snapshot;
}

/** A loaded project. */
export class LoadedProject {
  /** Names this load's chain of dependent writes in the group committer. */
  readonly chain = `load-${++epochCounter}`;
  /** The engine mutations run on. */
  readonly engine: StateEngine;
  /** Remembered (committed) request ids. */
  readonly requests: RequestTable;
  /** Requests whose mutation is waiting for its batch, by request id. */
  readonly inflight = new Map<string, { method: string; fingerprint: string; outcome: Promise<unknown> }>();
  /** Last durable state. */
  committed: ProjectState;
  /** Unix ms (host clock) of the last call that used the project. */
  lastUsed = 0;
  /** Corrupted journal records cut when this load recovered it (only with skip-corrupted). */
  readonly recordsSkipped: number;
  /** Set once the project is deleted; calls then fail PROJECT_NOT_FOUND. */
  deleted = false;
  private nextSeq: number;
  private pending = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private snapshotSeqs: number[];
  private journalFloor: number;
  private recordsSince: number;
  private bytesSince: number;
  private readEngine: StateEngine | undefined;
  private snapshotGeneration: number;
  // The snapshots of the last committed generations. The working engine's own ring runs ahead of
  // the disk by the writes in flight and would push out committed generations reads may still ask for.
  private readonly committedSnapshots: SnapshotRing;
  private committedRingSize: number;

  /** Wraps a recovered (or freshly created) project. */
  constructor(
    /** Catalogue entry. */
    readonly meta: ProjectMeta,
    recovered: RecoveredProject,
    private readonly now: () => number,
  ) {
    this.engine = recovered.engine;
    this.requests = recovered.requests;
    this.committed = recovered.engine.state;
    this.nextSeq = recovered.lastSeq + 1;
    this.snapshotSeqs = [...recovered.snapshotSeqs];
    this.journalFloor = recovered.snapshotSeqs.length > 0 ? Math.min(...recovered.snapshotSeqs) + 1 : 1;
    this.recordsSince = recovered.journalRecords;
    this.snapshotGeneration = recovered.baseGeneration;
    this.bytesSince = recovered.journalBytes;
    this.recordsSkipped = recovered.repair?.action === "cut-after-corruption" ? recovered.repair.records : 0;
    this.committedRingSize = this.committed.config.snapshotRingSize;
    this.committedSnapshots = new SnapshotRing(this.committedRingSize);
    for (const snapshot of recovered.engine.retainedSnapshots()) this.committedSnapshots.push(snapshot);
  }

  /** Header at the committed generation. */
  header(): ProjectHeader {
    return { projectId: this.meta.projectId, projectUid: this.meta.projectUid, generation: this.committed.generation, replayed: false };
  }

  /** True when no write of this project is waiting for its batch. */
  get idle(): boolean {
    return this.pending === 0 && this.inflight.size === 0;
  }

  /** Journal records kept after the newest snapshot. */
  get journalRecords(): number {
    return this.recordsSince;
  }

  /** Bytes of those records. */
  get journalBytes(): number {
    return this.bytesSince;
  }

  /** Generation of the newest durable snapshot (0 when none). */
  get lastSnapshotGeneration(): number {
    return this.snapshotGeneration;
  }

  /** Highest sequence number handed out so far. */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /**
   * Resolves when every write started so far is durable; rejects when one failed (a failure
   * poisons the project's later writes, so the last one carries it).
   */
  durable(): Promise<void> {
    return this.tail.then(() => undefined);
  }

  /** Resolves when every write started so far has settled. */
  settled(): Promise<void> {
    return this.tail.then(
      () => undefined,
      () => undefined,
    );
  }

  /** The committed view handed to read callbacks. */
  view(): ProjectView {
    const engine = this.committedEngine();
    return { header: this.header(), config: this.committed.config, snapshot: engine.snapshot(), engine };
  }

  /**
   * An engine over the committed state (the working one when nothing is pending), which keeps
   * the project's retained committed generations readable.
   */
  committedEngine(): ReadOnlyEngine & StateEngine {
    if (this.engine.state === this.committed) return this.engine;
    if (this.readEngine?.state !== this.committed) {
      const retained = this.committedSnapshots.snapshots();
      this.readEngine = new StateEngine({ now: this.now, sanitizer: false, initial: this.committed, retained });
    }
    return this.readEngine;
  }

  /** Builds the journal record (and a due snapshot) of the mutation that just ran on the engine. */
  prepare(event: StateEvent | undefined, request: StoredRequest | null): PreparedCommit {
    const seq = this.nextSeq++;
    const bytes = encodeRecord({
      format: JOURNAL_RECORD_FORMAT,
      seq,
      committedAt: this.now(),
      eventFormat: event?.formatVersion ?? 1,
      event: event ?? null,
      request,
    });
    const ops: StoreOp[] = [{ op: "append", projectUid: this.meta.projectUid, seq, bytes }];
    this.recordsSince++;
    this.bytesSince += bytes.length;
    const state = this.engine.state;
    // The snapshot rides in this record's own atomic batch, behind the chain's earlier batches (a
    // failed one poisons the rest): it reaches the disk only with every mutation it holds.
    if (this.recordsSince >= this.policy.everyRecords || this.bytesSince >= this.policy.everyBytes)
      ops.push(this.snapshotOp(seq, state, request));
    return { ops, state, seq, snapshot: this.engine.snapshot() };
  }

  /** Snapshot policy; set by the host. */
  policy: SnapshotPolicy = { everyRecords: 10_000, everyBytes: 16 * 1024 * 1024 };

  private snapshotOp(seq: number, state: ProjectState, request: StoredRequest | null): StoreOp {
    const requests = this.requests.entries().concat(this.pendingRequests(request));
    const bytes = encodeSnapshot({
      format: STATE_SNAPSHOT_FORMAT,
      projectUid: this.meta.projectUid,
      seq,
      takenAt: this.now(),
      document: toDocument(state),
      requests,
    });
    // Keep the previous snapshot and the journal after it, so a damaged newest snapshot still recovers.
    const [previous, ...older] = this.snapshotSeqs;
    const op: StoreOp = {
      op: "putSnapshot",
      projectUid: this.meta.projectUid,
      seq,
      bytes,
      dropSnapshots: older,
      ...(previous !== undefined && previous >= this.journalFloor
        ? { dropJournal: { fromSeq: this.journalFloor, throughSeq: previous } }
        : {}),
    };
    if (previous !== undefined) this.journalFloor = Math.max(this.journalFloor, previous + 1);
    this.snapshotSeqs = previous === undefined ? [seq] : [seq, previous];
    this.snapshotGeneration = state.generation;
    this.recordsSince = 0;
    this.bytesSince = 0;
    return op;
  }

  private pendingRequests(current: StoredRequest | null): StoredRequest[] {
    // Requests committed in the same or earlier unsynced batches are part of the snapshot's state.
    const out: StoredRequest[] = [];
    for (const r of this.unsyncedRequests) out.push(r);
    if (current !== null) out.push(current);
    return out;
  }

  /** Requests prepared but not yet durable, oldest first. */
  private readonly unsyncedRequests: StoredRequest[] = [];

  /**
   * Chains a prepared commit's durability; `committed` runs once it is durable, in order. A
   * mutation with a request id is findable in {@link LoadedProject.inflight} until it settles.
   */
  track<T>(prepared: PreparedCommit, request: StoredRequest | null, write: Promise<void>, committed: () => T): Promise<T> {
    this.pending++;
    if (request !== null) this.unsyncedRequests.push(request);
    // One reaction per outcome does all the bookkeeping: no further promises per mutation.
    const done = write.then(
      () => {
        this.pending--;
        this.committed = prepared.state;
        this.retain(prepared.snapshot);
        if (request !== null) {
          this.unsyncedRequests.shift();
          this.requests.remember(request);
          this.inflight.delete(request.requestId);
        }
        return committed();
      },
      (e: unknown) => {
        this.pending--;
        if (request !== null) this.inflight.delete(request.requestId);
        throw e;
      },
    );
    if (request !== null) this.inflight.set(request.requestId, { method: request.method, fingerprint: request.fingerprint, outcome: done });
    this.tail = done;
    return done;
  }

  private retain(snapshot: Snapshot): void {
    const size = snapshot.state.config.snapshotRingSize;
    if (size !== this.committedRingSize) {
      this.committedSnapshots.resize(size);
      this.committedRingSize = size;
    }
    this.committedSnapshots.push(snapshot);
  }
}
