/**
 * The storage contract behind the project host. A store keeps opaque framed bytes (the codecs
 * live in `journal/` and `snapshot/`), so every implementation stores exactly the same records:
 * in memory or on classic-level. `storeConformance` checks them all.
 */

/**
 * Which records a checkpoint-shaped op or read is about: named checkpoints, or backups (kept
 * apart, so neither lists, counts nor limits the other). Absent means "checkpoint".
 */
export type Shelf = "checkpoint" | "backup";

/** A stored value and the sequence number it is filed under. */
export interface SeqValue {
  /** Sequence number. */
  readonly seq: number;
  /** Framed bytes. */
  readonly bytes: Uint8Array;
}

/** A project's catalogue entry: its id and framed metadata. */
export interface MetaValue {
  /** Project id. */
  readonly projectId: string;
  /** Framed metadata (uid, creation time, config). */
  readonly bytes: Uint8Array;
}

/** One write; a list of them is applied atomically by {@link ProjectStore.write}. */
export type StoreOp =
  | { readonly op: "putMeta"; readonly projectId: string; readonly bytes: Uint8Array }
  | { readonly op: "append"; readonly projectUid: string; readonly seq: number; readonly bytes: Uint8Array }
  | {
      readonly op: "putSnapshot";
      readonly projectUid: string;
      readonly seq: number;
      readonly bytes: Uint8Array;
      /** Journal records with `fromSeq <= seq <= throughSeq` to drop with it (covered by an older kept snapshot). */
      readonly dropJournal?: { readonly fromSeq: number; readonly throughSeq: number };
      /** Snapshots filed under these sequence numbers to drop with it. */
      readonly dropSnapshots?: readonly number[];
    }
  | {
      readonly op: "putCheckpoint";
      readonly projectUid: string;
      readonly checkpointId: string;
      /** Checkpoints or backups; absent: checkpoints. */
      readonly shelf?: Shelf;
      /** The checkpoint's head: the value a listing returns. */
      readonly head: Uint8Array;
      /** Its body, stored beside the head and read only by {@link ProjectStore.getCheckpoint}; absent: none (any stored body goes). */
      readonly body?: Uint8Array;
    }
  | { readonly op: "deleteCheckpoint"; readonly projectUid: string; readonly checkpointId: string; readonly shelf?: Shelf }
  | { readonly op: "deleteProject"; readonly projectId: string; readonly projectUid: string };

/**
 * A stored checkpoint: a small head, which listings return, and optionally a body beside it,
 * which only {@link ProjectStore.getCheckpoint} reads, so a listing never reads a state document.
 * Head and body are written and deleted together in one atomic write: neither is ever seen
 * without the other.
 */
export interface StoredCheckpoint {
  /** Framed head. */
  readonly head: Uint8Array;
  /** Framed body; absent when it was written without one. */
  readonly body?: Uint8Array;
}

/** A listed checkpoint: its id and head, never its body. */
export interface ListedCheckpoint {
  /** Checkpoint id. */
  readonly checkpointId: string;
  /** Framed head. */
  readonly head: Uint8Array;
}

/** Which checkpoints a listing returns. */
export interface CheckpointRange {
  /** Only ids greater than this one (byte order). */
  readonly after?: string;
  /** At most this many. */
  readonly limit?: number;
  /** Checkpoints or backups; absent: checkpoints. */
  readonly shelf?: Shelf;
}

/** Optional abilities, as abstract-level's `supports` manifest; the conformance suite reads them. */
export interface StoreCapabilities {
  /** Data survives `close` and a new store on the same location. */
  readonly persistent: boolean;
}

/** Storage of many projects: catalogue, journals, state snapshots and checkpoints. */
export interface ProjectStore {
  /** What this implementation can do. */
  readonly capabilities: StoreCapabilities;
  /** Applies `ops` atomically and durably (synced) or not at all; STORE_UNAVAILABLE when it cannot. */
  write(ops: readonly StoreOp[]): Promise<void>;
  /** A small synced write that tells whether the store can write again. */
  probe(): Promise<void>;
  /** The metadata of one project, if it exists. */
  getMeta(projectId: string): Promise<MetaValue | undefined>;
  /** Up to `limit` catalogue entries with id greater than `after` (byte order), ascending. */
  listMeta(opts: { readonly after?: string; readonly limit: number }): Promise<MetaValue[]>;
  /** Snapshots of a project, newest first. */
  readSnapshots(projectUid: string): Promise<SeqValue[]>;
  /** Journal records with seq greater than `afterSeq`, ascending. */
  readJournal(projectUid: string, afterSeq: number): AsyncIterable<SeqValue>;
  /** The highest sequence number any journal record or snapshot of the project is filed under (0 when none). */
  lastSeq(projectUid: string): Promise<number>;
  /**
   * Checkpoints of a project with id greater than `after` (byte order; all when absent), ascending
   * id, at most `limit` (all when absent): a page reads only its own checkpoints' heads, no body.
   */
  listCheckpoints(projectUid: string, opts?: CheckpointRange): Promise<ListedCheckpoint[]>;
  /** One checkpoint's head and body, read together from one consistent view, if present. */
  getCheckpoint(projectUid: string, checkpointId: string, shelf?: Shelf): Promise<StoredCheckpoint | undefined>;
  /** How many checkpoints a project holds, counted from their keys: no checkpoint's head or body is returned or decoded. */
  countCheckpoints(projectUid: string, shelf?: Shelf): Promise<number>;
  /**
   * Repair: moves the journal records with seq >= `fromSeq` to a kept-aside area (never read by
   * recovery) and deletes them, atomically; REPAIR_FAILED when that fails. Returns how many moved.
   */
  cutJournal(projectUid: string, fromSeq: number): Promise<number>;
  /** Records cut aside by {@link cutJournal}, ascending seq (for operators and tests). */
  readCut(projectUid: string): Promise<SeqValue[]>;
  /** Flushes and releases the store; later calls fail STORE_UNAVAILABLE. */
  close(): Promise<void>;
}
