/**
 * Replay: reads a project's journal after a snapshot in sequence order, checks every record
 * (framing, CRC, format, sequence continuity), and hands damage to `repair.ts`.
 */

import type { ProjectStore, SeqValue } from "../store/project-store.js";
import { formatUnsupported } from "../errors.js";
import { decodeRecord, type JournalRecord } from "./record.js";
import { repairJournal, type RepairOutcome } from "./repair.js";

/** Where and how to replay. */
export interface ReplayOptions {
  /** Project id (for messages). */
  readonly projectId: string;
  /** Uid the journal is filed under. */
  readonly projectUid: string;
  /** Sequence number the base snapshot covers; replay starts at `afterSeq + 1`. */
  readonly afterSeq: number;
  /** Cut from damage on instead of refusing it (operator option; logged and counted by the caller). */
  readonly skipCorrupted: boolean;
}

/** What replay found. */
export interface ReplaySummary {
  /** Last sequence number applied (`afterSeq` when none). */
  readonly lastSeq: number;
  /** Records applied. */
  readonly records: number;
  /** Bytes of those records. */
  readonly bytes: number;
  /** The repair performed, if any. */
  readonly repair: RepairOutcome | undefined;
}

/**
 * Feeds each verified record to `apply` in order. Throws JOURNAL_CORRUPTED on damage that is not
 * a torn last record (unless skipping), FORMAT_UNSUPPORTED at a record of a newer format (never
 * cut), REPAIR_FAILED when a cut fails; `apply`'s errors propagate.
 */
export async function replayJournal(
  store: ProjectStore,
  opts: ReplayOptions,
  apply: (record: JournalRecord) => void,
): Promise<ReplaySummary> {
  let expected = opts.afterSeq + 1;
  let records = 0;
  let bytes = 0;
  const it = store.readJournal(opts.projectUid, opts.afterSeq)[Symbol.asyncIterator]();
  let next = await it.next();
  while (!next.done) {
    const current: SeqValue = next.value;
    next = await it.next();
    const last = next.done === true;
    const base = { projectId: opts.projectId, projectUid: opts.projectUid, last };
    if (current.seq !== expected) {
      await it.return?.();
      const damage = { ...base, seq: expected, fault: "gap" as const, reason: `record ${expected} is missing (next is ${current.seq})` };
      return { lastSeq: expected - 1, records, bytes, repair: await repairJournal(store, damage, opts.skipCorrupted) };
    }
    const decoded = decodeRecord(current.bytes, current.seq);
    if (!decoded.ok) {
      await it.return?.();
      // Intact data of a newer binary: neither damage to repair nor anything to skip.
      if (decoded.fault === "unsupported") throw formatUnsupported(opts.projectId, `journal record ${current.seq}`, decoded.reason);
      const damage = { ...base, seq: current.seq, fault: decoded.fault, reason: decoded.reason };
      return { lastSeq: expected - 1, records, bytes, repair: await repairJournal(store, damage, opts.skipCorrupted) };
    }
    apply(decoded.value);
    records++;
    bytes += current.bytes.length;
    expected++;
  }
  return { lastSeq: expected - 1, records, bytes, repair: undefined };
}
