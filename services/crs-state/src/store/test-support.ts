/**
 * Test support: a store wrapper that can hold writes at a gate, fail them the way a full disk
 * does, and count the synced batches, around any real {@link ProjectStore}.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CrsStateError } from "../errors.js";
import type { BatchWriter } from "./level/durable-batch.js";
import type { ProjectStore, StoreCapabilities, StoreOp } from "./project-store.js";
import type { CheckpointRange, ListedCheckpoint, MetaValue, SeqValue, Shelf, StoredCheckpoint } from "./project-store.js";

/** An ENOSPC error as node's fs raises it. */
export function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });
}

/** A disk that fails every LevelDB write with ENOSPC while `full` is set; pass `wrapWriter` to `LevelStore.open`. */
export function fullDisk(full = false): { full: boolean; wrapWriter: (inner: BatchWriter) => BatchWriter } {
  const disk = {
    full,
    wrapWriter:
      (inner: BatchWriter): BatchWriter =>
      async (ops) => {
        if (disk.full) throw enospc();
        await inner(ops);
      },
  };
  return disk;
}

/** A {@link ProjectStore} around another, with write faults and gates for tests. */
export class FaultStore implements ProjectStore {
  /** Synced batches that reached the inner store. */
  writes = 0;
  /** Operations in those batches. */
  ops = 0;
  /** While set, writes and probes fail with this error. */
  failWith: unknown = undefined;
  /** While set, writes reach the inner store and then fail with this error, as a sync that fails after the data is written. */
  failAfterWrite: unknown = undefined;
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;

  /** Wraps `inner`. */
  constructor(readonly inner: ProjectStore) {}

  /** Same as the inner store's. */
  get capabilities(): StoreCapabilities {
    return this.inner.capabilities;
  }

  /** Holds every write until {@link release}. */
  hold(): void {
    this.gate ??= new Promise<void>((resolve) => {
      this.openGate = resolve;
    });
  }

  /** Lets held writes through. */
  release(): void {
    this.openGate?.();
    this.gate = undefined;
    this.openGate = undefined;
  }

  /** Writes through the inner store unless failing or held. */
  async write(ops: readonly StoreOp[]): Promise<void> {
    if (this.gate !== undefined) await this.gate;
    if (this.failWith !== undefined) throw new CrsStateError("STORE_UNAVAILABLE", "store: write failed", {}, { cause: this.failWith });
    await this.inner.write(ops);
    if (this.failAfterWrite !== undefined)
      throw new CrsStateError("STORE_UNAVAILABLE", "store: write failed after it landed", {}, { cause: this.failAfterWrite });
    this.writes++;
    this.ops += ops.length;
  }

  /** Fails like a write while failing. */
  async probe(): Promise<void> {
    if (this.failWith !== undefined) throw new CrsStateError("STORE_UNAVAILABLE", "store: probe failed", {}, { cause: this.failWith });
    await this.inner.probe();
  }

  /** Passes through. */
  getMeta(projectId: string): Promise<MetaValue | undefined> {
    return this.inner.getMeta(projectId);
  }

  /** Passes through. */
  listMeta(opts: { readonly after?: string; readonly limit: number }): Promise<MetaValue[]> {
    return this.inner.listMeta(opts);
  }

  /** Passes through. */
  readSnapshots(projectUid: string): Promise<SeqValue[]> {
    return this.inner.readSnapshots(projectUid);
  }

  /** Passes through. */
  readJournal(projectUid: string, afterSeq: number): AsyncIterable<SeqValue> {
    return this.inner.readJournal(projectUid, afterSeq);
  }

  /** Passes through. */
  lastSeq(projectUid: string): Promise<number> {
    return this.inner.lastSeq(projectUid);
  }

  /** Passes through. */
  listCheckpoints(projectUid: string, opts?: CheckpointRange): Promise<ListedCheckpoint[]> {
    return this.inner.listCheckpoints(projectUid, opts);
  }

  /** Passes through. */
  getCheckpoint(projectUid: string, checkpointId: string, shelf?: Shelf): Promise<StoredCheckpoint | undefined> {
    return this.inner.getCheckpoint(projectUid, checkpointId, shelf);
  }

  /** Passes through. */
  countCheckpoints(projectUid: string, shelf?: Shelf): Promise<number> {
    return this.inner.countCheckpoints(projectUid, shelf);
  }

  /** Fails like a write while failing. */
  async cutJournal(projectUid: string, fromSeq: number): Promise<number> {
    if (this.failWith !== undefined) throw new CrsStateError("REPAIR_FAILED", "store: cut failed", {}, { cause: this.failWith });
    return this.inner.cutJournal(projectUid, fromSeq);
  }

  /** Passes through. */
  readCut(projectUid: string): Promise<SeqValue[]> {
    return this.inner.readCut(projectUid);
  }

  /** Passes through. */
  close(): Promise<void> {
    return this.inner.close();
  }
}

/** Runs `fn` with a fresh temporary directory, removed afterwards. */
export async function withTempDir(prefix: string, fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
