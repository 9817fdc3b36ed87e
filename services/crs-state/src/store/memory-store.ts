/**
 * The in-memory project store: the same contract and the same framed bytes as the durable
 * store, held in sorted maps. Nothing survives the process; writes are atomic per call.
 */

import { compareUtf8 } from "@crs/domain/state";
import { CrsStateError } from "../errors.js";
import type { ProjectStore, StoreCapabilities, StoreOp } from "./project-store.js";
import type { CheckpointRange, ListedCheckpoint, MetaValue, SeqValue, Shelf, StoredCheckpoint } from "./project-store.js";

interface ProjectData {
  readonly journal: Map<number, Uint8Array>;
  readonly snapshots: Map<number, Uint8Array>;
  readonly checkpoints: Map<string, StoredCheckpoint>;
  readonly backups: Map<string, StoredCheckpoint>;
  readonly cut: Map<number, Uint8Array>;
}

function ascending(m: Map<number, Uint8Array>): SeqValue[] {
  return [...m.entries()].sort((a, b) => a[0] - b[0]).map(([seq, bytes]) => ({ seq, bytes }));
}

function shelfOf(d: ProjectData, shelf: Shelf | undefined): Map<string, StoredCheckpoint> {
  return shelf === "backup" ? d.backups : d.checkpoints;
}

/** A {@link ProjectStore} in memory. */
export class MemoryStore implements ProjectStore {
  /** In memory: nothing persists past the process. */
  readonly capabilities: StoreCapabilities = { persistent: false };
  private readonly meta = new Map<string, Uint8Array>();
  private readonly data = new Map<string, ProjectData>();
  private closed = false;

  private project(uid: string): ProjectData {
    let d = this.data.get(uid);
    if (d === undefined) {
      d = { journal: new Map(), snapshots: new Map(), checkpoints: new Map(), backups: new Map(), cut: new Map() };
      this.data.set(uid, d);
    }
    return d;
  }

  private open(): void {
    if (this.closed) throw new CrsStateError("STORE_UNAVAILABLE", "store: closed");
  }

  /** Applies `ops` in order; all of them run synchronously, so none is seen half done. */
  async write(ops: readonly StoreOp[]): Promise<void> {
    this.open();
    for (const o of ops) this.apply(o);
  }

  private apply(o: StoreOp): void {
    switch (o.op) {
      case "putMeta":
        this.meta.set(o.projectId, o.bytes.slice());
        return;
      case "append":
        this.project(o.projectUid).journal.set(o.seq, o.bytes.slice());
        return;
      case "putSnapshot": {
        const p = this.project(o.projectUid);
        p.snapshots.set(o.seq, o.bytes.slice());
        for (const s of o.dropSnapshots ?? []) p.snapshots.delete(s);
        if (o.dropJournal !== undefined) for (let s = o.dropJournal.fromSeq; s <= o.dropJournal.throughSeq; s++) p.journal.delete(s);
        return;
      }
      case "putCheckpoint":
        shelfOf(this.project(o.projectUid), o.shelf).set(
          o.checkpointId,
          o.body === undefined ? { head: o.head.slice() } : { head: o.head.slice(), body: o.body.slice() },
        );
        return;
      case "deleteCheckpoint":
        shelfOf(this.project(o.projectUid), o.shelf).delete(o.checkpointId);
        return;
      case "deleteProject":
        this.meta.delete(o.projectId);
        this.data.delete(o.projectUid);
        return;
    }
  }

  /** Always succeeds while open: memory does not fill up the way a disk does. */
  async probe(): Promise<void> {
    this.open();
  }

  /** See {@link ProjectStore.getMeta}. */
  async getMeta(projectId: string): Promise<MetaValue | undefined> {
    this.open();
    const bytes = this.meta.get(projectId);
    return bytes === undefined ? undefined : { projectId, bytes };
  }

  /** See {@link ProjectStore.listMeta}. */
  async listMeta(opts: { readonly after?: string; readonly limit: number }): Promise<MetaValue[]> {
    this.open();
    const after = opts.after;
    const ids = [...this.meta.keys()].filter((id) => after === undefined || compareUtf8(id, after) > 0).sort(compareUtf8);
    return ids.slice(0, opts.limit).map((projectId) => ({ projectId, bytes: this.meta.get(projectId) as Uint8Array }));
  }

  /** See {@link ProjectStore.readSnapshots}. */
  async readSnapshots(projectUid: string): Promise<SeqValue[]> {
    this.open();
    return ascending(this.data.get(projectUid)?.snapshots ?? new Map()).reverse();
  }

  /** See {@link ProjectStore.readJournal}. */
  async *readJournal(projectUid: string, afterSeq: number): AsyncIterable<SeqValue> {
    this.open();
    for (const v of ascending(this.data.get(projectUid)?.journal ?? new Map())) if (v.seq > afterSeq) yield v;
  }

  /** See {@link ProjectStore.lastSeq}. */
  async lastSeq(projectUid: string): Promise<number> {
    this.open();
    const p = this.data.get(projectUid);
    if (p === undefined) return 0;
    return Math.max(0, ...p.journal.keys(), ...p.snapshots.keys());
  }

  /** See {@link ProjectStore.listCheckpoints}. */
  async listCheckpoints(projectUid: string, opts: CheckpointRange = {}): Promise<ListedCheckpoint[]> {
    this.open();
    const d = this.data.get(projectUid);
    const m = d === undefined ? new Map<string, StoredCheckpoint>() : shelfOf(d, opts.shelf);
    const { after } = opts;
    const ids = [...m.keys()].filter((id) => after === undefined || compareUtf8(id, after) > 0).sort(compareUtf8);
    return ids
      .slice(0, opts.limit ?? ids.length)
      .map((checkpointId) => ({ checkpointId, head: (m.get(checkpointId) as StoredCheckpoint).head }));
  }

  /** See {@link ProjectStore.getCheckpoint}. */
  async getCheckpoint(projectUid: string, checkpointId: string, shelf?: Shelf): Promise<StoredCheckpoint | undefined> {
    this.open();
    const d = this.data.get(projectUid);
    return d === undefined ? undefined : shelfOf(d, shelf).get(checkpointId);
  }

  /** See {@link ProjectStore.countCheckpoints}. */
  async countCheckpoints(projectUid: string, shelf?: Shelf): Promise<number> {
    this.open();
    const d = this.data.get(projectUid);
    return d === undefined ? 0 : shelfOf(d, shelf).size;
  }

  /** See {@link ProjectStore.cutJournal}. */
  async cutJournal(projectUid: string, fromSeq: number): Promise<number> {
    this.open();
    const p = this.project(projectUid);
    let moved = 0;
    for (const [seq, bytes] of [...p.journal.entries()]) {
      if (seq < fromSeq) continue;
      p.cut.set(seq, bytes);
      p.journal.delete(seq);
      moved++;
    }
    return moved;
  }

  /** See {@link ProjectStore.readCut}. */
  async readCut(projectUid: string): Promise<SeqValue[]> {
    this.open();
    return ascending(this.data.get(projectUid)?.cut ?? new Map());
  }

  /** Replaces a stored journal record's bytes as a damaged disk would (corruption tests). */
  damageJournal(projectUid: string, seq: number, bytes: Uint8Array): void {
    this.project(projectUid).journal.set(seq, bytes.slice());
  }

  /** Replaces a stored snapshot's bytes as a damaged disk would (corruption tests). */
  damageSnapshot(projectUid: string, seq: number, bytes: Uint8Array): void {
    this.project(projectUid).snapshots.set(seq, bytes.slice());
  }

  /** Releases nothing but refuses later calls, like the durable store. */
  async close(): Promise<void> {
    this.closed = true;
  }
}
