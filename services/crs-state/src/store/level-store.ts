/**
 * The durable project store on classic-level (LevelDB). Every write is one synced atomic batch
 * through `level/durable-batch.ts`; the key layout is in `level/level-keys.ts`.
 */

import { ClassicLevel } from "classic-level";
import { CrsStateError, isCrsStateError } from "../errors.js";
import { syncedBatchWriter, type BatchOp, type BatchWriter } from "./level/durable-batch.js";
import { FORMAT_KEY, LEVEL_STORE_FORMAT, PROBE_KEY, keys, range, seqOfKey, unescapeId } from "./level/level-keys.js";
import type { ProjectStore, StoreCapabilities, StoreOp } from "./project-store.js";
import type { CheckpointRange, ListedCheckpoint, MetaValue, SeqValue, Shelf, StoredCheckpoint } from "./project-store.js";

/** Options of {@link LevelStore.open}. */
export interface LevelStoreOptions {
  /** Wraps the durable-write helper (tests inject failures here). @defaultValue the helper itself */
  readonly wrapWriter?: (writer: BatchWriter) => BatchWriter;
  /** Clock for the cut-aside keys. @defaultValue Date.now */
  readonly now?: () => number;
}

type Db = ClassicLevel<string, Uint8Array>;

const encoder = new TextEncoder();

// What kept the store from opening: classic-level reports "failed to open" and keeps the reason
// (a held LOCK, a path that is not a directory) as its cause. A held lock reads as LevelDB's
// errno text ("Resource temporarily unavailable"), so it is named for the operator.
function openFailure(e: unknown): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
  const reason = cause instanceof Error ? cause.message : String(cause);
  const locked = (cause as { code?: unknown }).code === "LEVEL_LOCKED";
  return locked ? `${reason} (another process, or another store in this one, has the directory open)` : reason;
}

/** A {@link ProjectStore} on classic-level. */
export class LevelStore implements ProjectStore {
  /** Survives restarts. */
  readonly capabilities: StoreCapabilities = { persistent: true };
  private closed = false;
  private purging: Promise<void> = Promise.resolve();

  private writer: BatchWriter;

  private constructor(
    private db: Db,
    private readonly location: string,
    private readonly options: LevelStoreOptions,
  ) {
    this.writer = LevelStore.writerOf(db, options);
  }

  private get now(): () => number {
    return this.options.now ?? Date.now;
  }

  private static writerOf(db: Db, options: LevelStoreOptions): BatchWriter {
    const base = syncedBatchWriter(db);
    return options.wrapWriter?.(base) ?? base;
  }

  private static async openDb(location: string): Promise<Db> {
    const db: Db = new ClassicLevel<string, Uint8Array>(location, { keyEncoding: "utf8", valueEncoding: "view" });
    try {
      await db.open();
    } catch (e) {
      throw new CrsStateError("STORE_UNAVAILABLE", `store: cannot open ${location}: ${openFailure(e)}`, {}, { cause: e });
    }
    return db;
  }

  /** Opens (creating when absent) the store in `location`; STORE_UNAVAILABLE when it cannot, or when it holds an unknown format. */
  static async open(location: string, options: LevelStoreOptions = {}): Promise<LevelStore> {
    const db = await LevelStore.openDb(location);
    const store = new LevelStore(db, location, options);
    const format = await db.get(FORMAT_KEY);
    if (format === undefined) await store.batch([{ type: "put", key: FORMAT_KEY, value: encoder.encode(LEVEL_STORE_FORMAT) }]);
    else if (Buffer.from(format).toString("utf8") !== LEVEL_STORE_FORMAT) {
      await db.close();
      throw new CrsStateError(
        "STORE_UNAVAILABLE",
        `store: ${location} holds format ${Buffer.from(format).toString("utf8")}, this build reads ${LEVEL_STORE_FORMAT}`,
      );
    }
    store.purging = store.purgeDeleted();
    return store;
  }

  private check(): void {
    if (this.closed) throw new CrsStateError("STORE_UNAVAILABLE", "store: closed");
  }

  // The database to read from; between a probe's close and reopen there is none, and a read then
  // fails as retryable rather than as an internal error.
  private get reader(): Db {
    this.check();
    if (this.db.status !== "open") throw new CrsStateError("STORE_UNAVAILABLE", "store: reopening after a failed write");
    return this.db;
  }

  private async batch(ops: readonly BatchOp[]): Promise<void> {
    this.check();
    try {
      await this.writer(ops);
    } catch (e) {
      if (isCrsStateError(e)) throw e;
      throw new CrsStateError(
        "STORE_UNAVAILABLE",
        `store: write failed: ${(e as Error).message}`,
        { code: String((e as NodeJS.ErrnoException).code ?? "") },
        { cause: e },
      );
    }
  }

  /** See {@link ProjectStore.write}. */
  async write(ops: readonly StoreOp[]): Promise<void> {
    const batch: BatchOp[] = [];
    const deleted: string[] = [];
    for (const o of ops) {
      switch (o.op) {
        case "putMeta":
          batch.push({ type: "put", key: keys.meta(o.projectId), value: o.bytes });
          break;
        case "append":
          batch.push({ type: "put", key: keys.journal(o.projectUid, o.seq), value: o.bytes });
          break;
        case "putSnapshot":
          batch.push({ type: "put", key: keys.snapshot(o.projectUid, o.seq), value: o.bytes });
          for (const s of o.dropSnapshots ?? []) batch.push({ type: "del", key: keys.snapshot(o.projectUid, s) });
          if (o.dropJournal !== undefined) {
            for (let s = o.dropJournal.fromSeq; s <= o.dropJournal.throughSeq; s++)
              batch.push({ type: "del", key: keys.journal(o.projectUid, s) });
          }
          break;
        case "putCheckpoint": {
          // Head and body in the same batch: a crash keeps both or neither, and an overwrite
          // without a body drops the old one rather than leaving it beside the new head.
          const body = keys.checkpointBody(o.projectUid, o.checkpointId, o.shelf);
          batch.push(
            { type: "put", key: keys.checkpoint(o.projectUid, o.checkpointId, o.shelf), value: o.head },
            o.body === undefined ? { type: "del", key: body } : { type: "put", key: body, value: o.body },
          );
          break;
        }
        case "deleteCheckpoint":
          batch.push(
            { type: "del", key: keys.checkpoint(o.projectUid, o.checkpointId, o.shelf) },
            { type: "del", key: keys.checkpointBody(o.projectUid, o.checkpointId, o.shelf) },
          );
          break;
        case "deleteProject":
          // The catalogue entry goes now; the project's other keys are purged after the batch.
          batch.push(
            { type: "del", key: keys.meta(o.projectId) },
            { type: "put", key: keys.garbage(o.projectUid), value: new Uint8Array(0) },
          );
          deleted.push(o.projectUid);
          break;
      }
    }
    await this.batch(batch);
    if (deleted.length > 0) this.purging = this.purging.then(() => this.purge(deleted));
  }

  private async purgeDeleted(): Promise<void> {
    const uids: string[] = [];
    for await (const key of this.db.keys(range(keys.garbagePrefix))) uids.push(key.slice(keys.garbagePrefix.length));
    await this.purge(uids);
  }

  private async purge(uids: readonly string[]): Promise<void> {
    try {
      for (const uid of uids) {
        const prefixes = [
          keys.journalPrefix,
          keys.snapshotPrefix,
          keys.checkpointPrefix,
          keys.checkpointBodyPrefix,
          keys.backupPrefix,
          keys.backupBodyPrefix,
          keys.cutPrefix,
        ];
        for (const prefix of prefixes) await this.db.clear(range(prefix(uid)));
        await this.db.del(keys.garbage(uid));
      }
    } catch {
      // Left for the next open: the garbage marker stays until every key is gone.
    }
  }

  /**
   * See {@link ProjectStore.probe}. The database is reopened first: a write that failed (a full
   * disk) may have left part of a record at the end of LevelDB's log, and records appended after
   * it would be read back as corruption and dropped on the next open. Reopening recovers the log
   * up to its last whole record and starts a fresh one. Until it opens again, every call fails
   * STORE_UNAVAILABLE.
   */
  async probe(): Promise<void> {
    this.check();
    await this.db.close();
    this.db = await LevelStore.openDb(this.location);
    this.writer = LevelStore.writerOf(this.db, this.options);
    await this.batch([{ type: "put", key: PROBE_KEY, value: encoder.encode(String(this.now())) }]);
  }

  /** See {@link ProjectStore.getMeta}. */
  async getMeta(projectId: string): Promise<MetaValue | undefined> {
    this.check();
    const bytes = await this.reader.get(keys.meta(projectId));
    return bytes === undefined ? undefined : { projectId, bytes };
  }

  /** See {@link ProjectStore.listMeta}. */
  async listMeta(opts: { readonly after?: string; readonly limit: number }): Promise<MetaValue[]> {
    this.check();
    const bounds = range(keys.metaPrefix);
    const gt = opts.after === undefined ? bounds.gt : keys.meta(opts.after);
    const out: MetaValue[] = [];
    for await (const [key, bytes] of this.reader.iterator({ gt, lt: bounds.lt, limit: opts.limit })) {
      out.push({ projectId: unescapeId(key.slice(keys.metaPrefix.length)), bytes });
    }
    return out;
  }

  private async seqValues(prefix: string, opts: { after?: number; reverse?: boolean; limit?: number } = {}): Promise<SeqValue[]> {
    const bounds = range(prefix);
    const gt = opts.after === undefined ? bounds.gt : `${prefix}${opts.after.toString(16).padStart(16, "0")}`;
    const out: SeqValue[] = [];
    for await (const [key, bytes] of this.reader.iterator({ gt, lt: bounds.lt, reverse: opts.reverse ?? false, limit: opts.limit ?? -1 })) {
      out.push({ seq: seqOfKey(key, prefix), bytes });
    }
    return out;
  }

  /** See {@link ProjectStore.readSnapshots}. */
  async readSnapshots(projectUid: string): Promise<SeqValue[]> {
    this.check();
    return this.seqValues(keys.snapshotPrefix(projectUid), { reverse: true });
  }

  /** See {@link ProjectStore.readJournal}; reads in pages so a long journal is never held whole. */
  async *readJournal(projectUid: string, afterSeq: number): AsyncIterable<SeqValue> {
    this.check();
    const prefix = keys.journalPrefix(projectUid);
    let after = afterSeq;
    for (;;) {
      const page = await this.seqValues(prefix, { after, limit: 1024 });
      yield* page;
      if (page.length < 1024) return;
      after = (page.at(-1) as SeqValue).seq;
    }
  }

  /** See {@link ProjectStore.lastSeq}. */
  async lastSeq(projectUid: string): Promise<number> {
    this.check();
    const [j] = await this.seqValues(keys.journalPrefix(projectUid), { reverse: true, limit: 1 });
    const [s] = await this.seqValues(keys.snapshotPrefix(projectUid), { reverse: true, limit: 1 });
    return Math.max(j?.seq ?? 0, s?.seq ?? 0);
  }

  /** See {@link ProjectStore.listCheckpoints}; walks the heads' range only, bodies live under another prefix. */
  async listCheckpoints(projectUid: string, opts: CheckpointRange = {}): Promise<ListedCheckpoint[]> {
    this.check();
    const prefix = keys.checkpointPrefix(projectUid, opts.shelf);
    const bounds = range(prefix);
    const gt = opts.after === undefined ? bounds.gt : keys.checkpoint(projectUid, opts.after, opts.shelf);
    const out: ListedCheckpoint[] = [];
    for await (const [key, head] of this.reader.iterator({ gt, lt: bounds.lt, limit: opts.limit ?? -1 }))
      out.push({ checkpointId: unescapeId(key.slice(prefix.length)), head });
    return out;
  }

  /** See {@link ProjectStore.getCheckpoint}; one `getMany` reads head and body from one snapshot, so a concurrent write is seen whole or not at all. */
  async getCheckpoint(projectUid: string, checkpointId: string, shelf?: Shelf): Promise<StoredCheckpoint | undefined> {
    this.check();
    const [head, body] = await this.reader.getMany([
      keys.checkpoint(projectUid, checkpointId, shelf),
      keys.checkpointBody(projectUid, checkpointId, shelf),
    ]);
    if (head === undefined) return undefined;
    return body === undefined ? { head } : { head, body };
  }

  /** See {@link ProjectStore.countCheckpoints}; walks the keys of the project's checkpoint range without copying a value out. */
  async countCheckpoints(projectUid: string, shelf?: Shelf): Promise<number> {
    this.check();
    let count = 0;
    for await (const _key of this.reader.keys(range(keys.checkpointPrefix(projectUid, shelf)))) count++;
    return count;
  }

  /** See {@link ProjectStore.cutJournal}. */
  async cutJournal(projectUid: string, fromSeq: number): Promise<number> {
    this.check();
    const records = await this.seqValues(keys.journalPrefix(projectUid), { after: fromSeq - 1 });
    const at = this.now();
    const ops: BatchOp[] = records.flatMap((r) => [
      { type: "put" as const, key: keys.cut(projectUid, r.seq, at), value: r.bytes },
      { type: "del" as const, key: keys.journal(projectUid, r.seq) },
    ]);
    if (ops.length === 0) return 0;
    try {
      await this.batch(ops);
    } catch (e) {
      throw new CrsStateError(
        "REPAIR_FAILED",
        `store: keeping aside and cutting ${records.length} records failed`,
        { projectUid },
        { cause: e },
      );
    }
    return records.length;
  }

  /** See {@link ProjectStore.readCut}. */
  async readCut(projectUid: string): Promise<SeqValue[]> {
    this.check();
    return this.seqValues(keys.cutPrefix(projectUid));
  }

  /** Waits for purges, then closes the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.purging;
    this.closed = true;
    await this.db.close();
  }
}
