/**
 * The one surface the gRPC handlers use to reach projects: create, read, mutate, delete, list,
 * checkpoints, fork and status. Implementations (in memory, on classic-level) keep the same
 * contract: mutations of one project are serialised and pipelined into synced group commits,
 * a mutation is acknowledged only after its journal record is durable, reads see committed
 * state only, and a retried request id answers the first outcome.
 */

import type { ProjectState, Snapshot, StateConfig, StateDocument, StateEngine, Mutation } from "@crs/domain/state";
import type { CommitSource } from "./commit-feed.js";
import type { HostBackups } from "./host-backups.js";

/**
 * Identity of a project as a mutation or read left it.
 * `projectUid` changes when a project is deleted and created again under the same id.
 */
export interface ProjectHeader {
  /** The caller's project id (`[A-Za-z0-9._:-]{1,128}`). */
  readonly projectId: string;
  /** Unique id of this incarnation of the project (a random 128-bit hex string). */
  readonly projectUid: string;
  /** Generation after the call (for a read: the committed generation that was read). */
  readonly generation: number;
  /** True when the answer is the stored outcome of an earlier call with the same request id. */
  readonly replayed: boolean;
}

/** Options of {@link ProjectHost.create}. */
export interface CreateProjectOptions {
  /** Engine limits of the new project, merged over the defaults; INVALID_CONFIG when out of range. */
  readonly config?: Partial<StateConfig>;
  /**
   * Idempotency key: a retried create with the same id and fingerprint answers the stored first
   * answer (replayed); the same id with another fingerprint fails REQUEST_ID_REUSED.
   */
  readonly requestId?: string;
  /** Hash of the create request's content, in hex, kept with its request id. */
  readonly fingerprint?: string;
  /** Encodes the response from the new project's header; stored with the request id for replay. */
  readonly answer?: (header: ProjectHeader) => Uint8Array;
}

/** What {@link ProjectHost.create} answers: the new project's header, with its encoded answer. */
export interface CreatedProject extends ProjectHeader {
  /**
   * The encoded response: fresh from `answer`, or the stored one when replayed. Absent without
   * `answer`, and on a replay of a create whose answer was not kept (written by an older server).
   */
  readonly answer?: Uint8Array;
}

/**
 * The committed state of one project, handed to a read callback. Valid only during the
 * callback; everything it returns is immutable, so values taken from it may be kept.
 */
export interface ProjectView {
  /** The project's header (replayed is false). */
  readonly header: ProjectHeader;
  /** Engine limits of the project. */
  readonly config: StateConfig;
  /** Committed snapshot (never includes a mutation that is still waiting for its sync). */
  readonly snapshot: Snapshot;
  /**
   * Read-only engine helpers over the committed state: `checkAssignment`, `now` (the host clock), `checkCircuitBreaker`,
   * `analyzeSessionCycles`, `snapshotAt`, `retainedSnapshots`, `staleness`, `assertFresh`, `validate`, `exportDocument`.
   */
  readonly engine: ReadOnlyEngine;
}

/** The engine methods that never change state. */
export type ReadOnlyEngine = Pick<
  StateEngine,
  | "config"
  | "generation"
  | "snapshot"
  | "snapshotAt"
  | "retainedSnapshots"
  | "staleness"
  | "assertFresh"
  | "validate"
  | "checkAssignment"
  | "now"
  | "checkCircuitBreaker"
  | "analyzeSessionCycles"
  | "exportDocument"
>;

/** Options of {@link ProjectHost.read}. */
export interface ReadOptions {
  /** PROJECT_UID_MISMATCH unless the project's uid equals this. */
  readonly expectedUid?: string;
}

/**
 * What the handler says about a mutation besides its body.
 *
 * Idempotency: a `requestId` is remembered per project together with `method`, `fingerprint`
 * and the encoded answer, durably with the mutation it answers. The host keeps the last
 * {@link DEFAULT_REQUEST_ID_RETENTION} ids per project (configurable), across restarts.
 * A retry with the same id, method and fingerprint answers the stored bytes with
 * `replayed: true`; the same id with another method or fingerprint fails REQUEST_ID_REUSED.
 * A retry that arrives while the first call is still in flight waits for it and gets its answer.
 * Failed mutations and `validateOnly` calls are never remembered.
 */
export interface MutationRequest {
  /** The RPC's method name (for example `Apply`); part of the idempotency key's check. */
  readonly method: string;
  /** Client idempotency key; at most 128 bytes. */
  readonly requestId?: string;
  /** Hash of the request's content, in hex (for example SHA-256 of its canonical bytes). */
  readonly fingerprint?: string;
  /** PROJECT_UID_MISMATCH unless the project's uid equals this. */
  readonly expectedUid?: string;
  /** GENERATION_MISMATCH unless the committed generation equals this before the mutation. */
  readonly expectedGeneration?: number;
  /** Run the body against a scratch copy: nothing is journaled, remembered or changed. */
  readonly validateOnly?: boolean;
}

/** Outcome of {@link ProjectHost.mutate}. */
export interface MutationOutcome {
  /** The encoded response: freshly produced by `answer`, or the stored one when replayed. */
  readonly answer: Uint8Array;
  /** True when `answer` is the stored outcome of an earlier call with the same request id. */
  readonly replayed: boolean;
  /** The project's header after the mutation (on replay: as the first call left it). */
  readonly header: ProjectHeader;
}

/** One row of {@link ProjectHost.list}. */
export interface ProjectSummary {
  /** The caller's project id. */
  readonly projectId: string;
  /** Uid of the current incarnation. */
  readonly projectUid: string;
  /** Generation of the last committed mutation, loaded or not (listing never loads a project). */
  readonly generation: number;
  /** Unix ms of creation. */
  readonly createdAt: number;
  /** Unix ms of the last committed mutation (creation time before the first). */
  readonly lastChangeAt: number;
  /** Whether the project is in memory now. */
  readonly loaded: boolean;
  /** "data_loss" when the host holds the project as unrecoverable (it tried to load it); else "ok". */
  readonly state: "ok" | "data_loss";
  /** Journal and snapshot facts, for a loaded project (reading them for another would load it). */
  readonly storage?: {
    /** Oldest generation still readable as a snapshot. */
    readonly oldestSnapshotGeneration: number;
    /** Generation of the newest durable state snapshot (0 when none). */
    readonly lastSnapshotGeneration: number;
    /** Journal records after it. */
    readonly journalRecords: number;
    /** Bytes of those records. */
    readonly journalBytes: number;
  };
}

/** A page request of {@link ProjectHost.list}; projects come in ascending id order (UTF-8 bytes). */
export interface PageRequest {
  /** Rows per page, 1..1000. */
  readonly pageSize: number;
  /** The `nextPageToken` of the previous page; omitted or "" for the first page. */
  readonly pageToken?: string;
  /** Only projects in memory now; a token of one filter is refused (INVALID_PAGE_TOKEN) by the other. */
  readonly openOnly?: boolean;
}

/** A page of {@link ProjectHost.list}. */
export interface ProjectPage {
  /** Rows in ascending project id order. */
  readonly projects: readonly ProjectSummary[];
  /** Token of the next page, "" on the last page. */
  readonly nextPageToken: string;
}

/** A durable named checkpoint of one project. */
export interface CheckpointInfo {
  /** Checkpoint id: the caller's name, or `checkpoint-<generation>` when none was given. */
  readonly checkpointId: string;
  /** Generation captured. */
  readonly generation: number;
  /** Unix ms the checkpoint was taken. */
  readonly createdAt: number;
  /** Size of the stored state document in bytes. */
  readonly sizeBytes: number;
  /** The stored bytes failed verification; generation and createdAt are unknown (0). Only a listing reports it. */
  readonly damaged: boolean;
  /**
   * Intact but newer than this server reads: restore and fork refuse it. When the checkpoint record
   * itself is newer (only a listing reports that), generation and createdAt are unknown (0).
   */
  readonly unsupportedFormat: boolean;
}

/** A new checkpoint, with the header of the project incarnation and generation it captured. */
export interface CreatedCheckpoint extends CheckpointInfo {
  /** The project as captured: writes committed while the checkpoint was stored are not in it. */
  readonly header: ProjectHeader;
}

/** Durable named checkpoints; ids follow the project id grammar. Listed in ascending id order. */
export interface CheckpointHost {
  /**
   * Captures the committed state durably; CHECKPOINT_EXISTS when the id is taken, CHECKPOINT_LIMIT
   * when the project holds the most checkpoints the host keeps. Does not move the generation.
   */
  create(projectId: string, opts: { checkpointId?: string; expectedUid?: string }): Promise<CreatedCheckpoint>;
  /**
   * Checkpoints of the project, ascending id: those after `after`, at most `limit` (all when
   * absent). A damaged or newer-format checkpoint is listed with its flag set; it never fails the list.
   */
  list(projectId: string, opts?: { expectedUid?: string; after?: string; limit?: number }): Promise<CheckpointInfo[]>;
  /**
   * One checkpoint's info with the header of the project incarnation holding it; CHECKPOINT_NOT_FOUND
   * when absent, CHECKPOINT_CORRUPTED or FORMAT_UNSUPPORTED when unreadable.
   */
  get(
    projectId: string,
    checkpointId: string,
    opts?: { expectedUid?: string },
  ): Promise<CheckpointInfo & { readonly header: ProjectHeader }>;
  /**
   * Deletes a checkpoint durably, readable or not, and answers the header of the project
   * incarnation it was deleted from; CHECKPOINT_NOT_FOUND when absent.
   */
  delete(projectId: string, checkpointId: string, opts?: { expectedUid?: string }): Promise<ProjectHeader>;
  /**
   * Replaces the project's content with the checkpoint's as one journaled mutation (the
   * generation moves forward); `answer` encodes the response from the new header and the
   * generation the checkpoint captured. Idempotency as in {@link ProjectHost.mutate}: a retried
   * request id replays its first answer before the checkpoint is read, so it answers even after
   * the checkpoint was deleted.
   */
  restore(
    projectId: string,
    checkpointId: string,
    req: MutationRequest,
    answer: (header: ProjectHeader, restoredFrom: number) => Uint8Array,
  ): Promise<MutationOutcome>;
}

/** Imports of a whole state document into a project. */
export interface ImportHost {
  /**
   * Imports `doc` into `projectId`, checked completely first (IMPORT_INVALID, UNSUPPORTED_FORMAT)
   * so a failed import changes nothing. An existing project is replaced only when `replaceExisting`
   * (else PROJECT_EXISTS), by one journaled mutation whose request id replays; its state becomes
   * the document's but for the delta history, which is kept. An absent project is created holding
   * exactly the document's state; that create is not replayed by request id.
   */
  run(
    projectId: string,
    doc: StateDocument,
    req: MutationRequest & { readonly replaceExisting: boolean },
    answer: (header: ProjectHeader, imported: ProjectState) => Uint8Array,
  ): Promise<MutationOutcome>;
}

/** Where a fork starts: a generation still held in memory (the current one when absent), or a durable checkpoint. */
export type ForkSource = { readonly generation?: number } | { readonly checkpointId: string };

/** What {@link ProjectHost.status} reports about one project. */
export interface ProjectStatus {
  /** The project's header (replayed is false). */
  readonly header: ProjectHeader;
  /** Whether the project is in memory now. */
  readonly loaded: boolean;
  /** "data_loss" when recovery found corruption it may not repair; the project then refuses calls. */
  readonly state: "ok" | "data_loss";
  /** Journal records kept after the last state snapshot. */
  readonly journalRecords: number;
  /** Bytes of those records. */
  readonly journalBytes: number;
  /** Generation of the latest durable state snapshot (0 when none). */
  readonly lastSnapshotGeneration: number;
  /** Highest journal sequence number written for the project. */
  readonly lastSequence: number;
  /** Corrupted journal records cut when the project was last recovered (only with skip-corrupted). */
  readonly corruptedRecordsSkipped: number;
}

/**
 * All the handlers need of the project store. Every method throws `CrsStateError`s with codes
 * from `errors.ts`, which `grpc/status-map.ts` maps to gRPC codes; engine `StateError`s
 * (validation, GENERATION_MISMATCH, ...) pass through unchanged.
 */
export interface ProjectHost {
  /** Creates an empty project; PROJECT_EXISTS when the id is taken (unless the request id replays). */
  create(projectId: string, opts: CreateProjectOptions): Promise<CreatedProject>;
  /** Runs `fn` over the committed state; PROJECT_NOT_FOUND, PROJECT_UID_MISMATCH, PROJECT_DATA_LOSS. */
  read<T>(projectId: string, fn: (view: ProjectView) => T, opts?: ReadOptions): Promise<T>;
  /**
   * Runs one engine mutation durably. `body` calls exactly one mutating engine method and
   * returns its `Mutation`; `answer` encodes the response from the result and the new header,
   * so the host can store it with the journal record for idempotent replay. Resolves only after
   * the record is synced; STORE_UNAVAILABLE when the write failed (nothing was acknowledged).
   */
  mutate<R>(
    projectId: string,
    req: MutationRequest,
    body: (engine: StateEngine) => Mutation<R>,
    answer: (result: R, header: ProjectHeader) => Uint8Array,
  ): Promise<MutationOutcome>;
  /** Deletes a project with its journal, snapshots and checkpoints; PROJECT_NOT_FOUND when absent. */
  delete(projectId: string, opts: { expectedUid?: string }): Promise<void>;
  /**
   * Pages through every project (or, with `openOnly`, every loaded one) in ascending id order; a
   * page holds up to `pageSize` rows and its token is "" exactly when no more follow.
   */
  list(page: PageRequest): Promise<ProjectPage>;
  /** Durable named checkpoints. */
  readonly checkpoints: CheckpointHost;
  /** Whole-document imports. */
  readonly imports: ImportHost;
  /** Backups: compressed state documents with their metadata, verified before a restore. */
  readonly backups: HostBackups;
  /**
   * Each journaled mutation of a project once it is durable (after its answer's record is synced,
   * before the answer is sent), in generation order, and each deletion. Failed writes are never heard.
   */
  readonly commits: CommitSource;
  /**
   * Creates `targetId` from the source's state at `from`, read from the incarnation `expectedUid`
   * names when given; PROJECT_EXISTS, PROJECT_UID_MISMATCH, SNAPSHOT_NOT_FOUND, CHECKPOINT_NOT_FOUND, CHECKPOINT_CORRUPTED.
   */
  fork(sourceId: string, targetId: string, from: ForkSource, opts?: { expectedUid?: string }): Promise<ProjectHeader>;
  /** Storage facts of one project; loads it when needed. */
  status(projectId: string): Promise<ProjectStatus>;
  /** Ids of the projects in memory now, ascending. */
  loadedProjectIds(): string[];
  /** False while the store cannot write (health NOT_SERVING); a probe turns it back on. */
  serving(): boolean;
  /** Flushes pending commits and closes the store; later calls fail STORE_UNAVAILABLE. */
  close(): Promise<void>;
}

/** Request ids remembered per project unless configured otherwise. */
export const DEFAULT_REQUEST_ID_RETENTION = 10_000;
