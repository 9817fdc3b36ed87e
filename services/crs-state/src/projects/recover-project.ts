/**
 * Recovery of one project: the newest state snapshot that verifies, then the journal after it.
 * A torn last record is cut (a copy kept); any other damage throws, and the host marks the
 * project DATA_LOSS while the other projects keep serving.
 */

import { StateEngine, isStateError } from "@crs/domain/state";
import { CrsStateError, formatUnsupported } from "../errors.js";
import type { RepairOutcome } from "../journal/repair.js";
import { replayJournal } from "../journal/replay.js";
import { decodeSnapshot, type StateSnapshot } from "../snapshot/state-snapshot.js";
import type { ProjectStore } from "../store/project-store.js";
import type { ProjectMeta } from "./project-meta.js";
import { RequestTable } from "./request-table.js";

/** How to recover. */
export interface RecoverOptions {
  /** Engine clock. */
  readonly now: () => number;
  /** Request ids remembered per project. */
  readonly requestIdRetention: number;
  /** Cut from journal damage on instead of refusing it. */
  readonly skipCorrupted: boolean;
}

/** A recovered project, ready to serve. */
export interface RecoveredProject {
  /** Engine holding the recovered state. */
  readonly engine: StateEngine;
  /** Remembered request ids. */
  readonly requests: RequestTable;
  /** Last journal sequence number applied. */
  readonly lastSeq: number;
  /** Sequence numbers of the snapshots present (valid or not), newest first. */
  readonly snapshotSeqs: number[];
  /** Generation of the snapshot recovery started from (0 when none). */
  readonly baseGeneration: number;
  /** Journal records replayed after the base snapshot. */
  readonly journalRecords: number;
  /** Bytes of those records. */
  readonly journalBytes: number;
  /** Snapshots that failed verification and were passed over. */
  readonly corruptSnapshots: number;
  /** The journal repair performed, if any. */
  readonly repair: RepairOutcome | undefined;
}

interface Base {
  readonly engine: StateEngine;
  readonly snapshot: StateSnapshot | undefined;
}

async function loadBase(
  store: ProjectStore,
  meta: ProjectMeta,
  opts: RecoverOptions,
): Promise<{ base: Base; seqs: number[]; corrupt: number; reasons: string[] }> {
  const snapshots = await store.readSnapshots(meta.projectUid);
  const reasons: string[] = [];
  for (const s of snapshots) {
    const decoded = decodeSnapshot(s.bytes, s.seq, meta.projectUid);
    // A newer binary's snapshot is not damage: falling back to an older one would lose the
    // journal it replaced.
    if (!decoded.ok && decoded.fault === "unsupported") throw formatUnsupported(meta.projectId, `state snapshot ${s.seq}`, decoded.reason);
    if (!decoded.ok) {
      reasons.push(`snapshot ${s.seq}: ${decoded.reason}`);
      continue;
    }
    try {
      const engine = StateEngine.fromDocument(decoded.value.document, { config: meta.config, now: opts.now });
      return { base: { engine, snapshot: decoded.value }, seqs: snapshots.map((x) => x.seq), corrupt: reasons.length, reasons };
    } catch (e) {
      // Its document is just as much a newer binary's as a newer frame would be.
      if (isStateError(e, "UNSUPPORTED_FORMAT")) throw formatUnsupported(meta.projectId, `state snapshot ${s.seq}`, e.message);
      reasons.push(`snapshot ${s.seq}: ${(e as Error).message}`);
    }
  }
  if (snapshots.length > 0) {
    throw new CrsStateError("SNAPSHOT_CORRUPTED", `snapshot: no snapshot of project ${meta.projectId} verifies (${reasons.join("; ")})`, {
      projectId: meta.projectId,
    });
  }
  return { base: { engine: new StateEngine({ config: meta.config, now: opts.now }), snapshot: undefined }, seqs: [], corrupt: 0, reasons };
}

/** Recovers `meta`'s project from `store`; throws SNAPSHOT_CORRUPTED, JOURNAL_CORRUPTED or REPAIR_FAILED. */
export async function recoverProject(store: ProjectStore, meta: ProjectMeta, opts: RecoverOptions): Promise<RecoveredProject> {
  const { base, seqs, corrupt } = await loadBase(store, meta, opts);
  const requests = new RequestTable(opts.requestIdRetention);
  for (const r of base.snapshot?.requests ?? []) requests.remember(r);
  const baseSeq = base.snapshot?.seq ?? 0;
  const summary = await replayJournal(
    store,
    { projectId: meta.projectId, projectUid: meta.projectUid, afterSeq: baseSeq, skipCorrupted: opts.skipCorrupted },
    (record) => {
      if (record.event !== null) {
        try {
          base.engine.replay(record.event);
        } catch (e) {
          if (isStateError(e, "UNSUPPORTED_FORMAT"))
            throw formatUnsupported(meta.projectId, `journal record ${record.seq}`, (e as Error).message);
          throw new CrsStateError(
            "JOURNAL_CORRUPTED",
            `journal: project ${meta.projectId} record ${record.seq} does not replay: ${(e as Error).message}`,
            {
              projectId: meta.projectId,
              seq: String(record.seq),
            },
            { cause: e },
          );
        }
      }
      if (record.request !== null) requests.remember(record.request);
    },
  );
  return {
    engine: base.engine,
    requests,
    lastSeq: summary.lastSeq,
    snapshotSeqs: seqs,
    baseGeneration: base.snapshot?.document.generation ?? 0,
    journalRecords: summary.records,
    journalBytes: summary.bytes,
    corruptSnapshots: corrupt,
    repair: summary.repair,
  };
}
