/**
 * Narrow repair: only a torn last record (an interrupted write: shorter than its header says)
 * is cut, after a copy is kept aside. Anything else is refused with a named error, unless the
 * operator set the skip-corrupted option, which cuts from the damage on and says so.
 */

import { CrsStateError, isCrsStateError } from "../errors.js";
import type { ProjectStore } from "../store/project-store.js";

/** What repair did. */
export interface RepairOutcome {
  /** "cut-torn-tail": the torn last record was cut; "cut-after-corruption": skip-corrupted cut from the damage on. */
  readonly action: "cut-torn-tail" | "cut-after-corruption";
  /** First sequence number cut. */
  readonly fromSeq: number;
  /** Records moved aside. */
  readonly records: number;
  /** Why. */
  readonly reason: string;
}

/** A damaged record found by replay. */
export interface JournalDamage {
  /** Project whose journal it is. */
  readonly projectId: string;
  /** Uid the records are filed under. */
  readonly projectUid: string;
  /** Sequence number of the damaged (or missing) record. */
  readonly seq: number;
  /** "torn" (interrupted write), "corrupt" (checksum, format) or "gap" (a missing record). */
  readonly fault: "torn" | "corrupt" | "gap";
  /** Whether it is the last record of the journal. */
  readonly last: boolean;
  /** Detail. */
  readonly reason: string;
}

/**
 * Decides and performs the repair of `damage`: cuts a torn last record; with `skipCorrupted`
 * cuts from any damage on; otherwise throws JOURNAL_CORRUPTED. REPAIR_FAILED when the cut fails.
 */
export async function repairJournal(store: ProjectStore, damage: JournalDamage, skipCorrupted: boolean): Promise<RepairOutcome> {
  const tornTail = damage.fault === "torn" && damage.last;
  if (!tornTail && !skipCorrupted) {
    throw new CrsStateError(
      "JOURNAL_CORRUPTED",
      `journal: project ${damage.projectId} record ${damage.seq} is ${damage.fault}: ${damage.reason}`,
      {
        projectId: damage.projectId,
        seq: String(damage.seq),
        fault: damage.fault,
      },
    );
  }
  let records: number;
  try {
    records = await store.cutJournal(damage.projectUid, damage.seq);
  } catch (e) {
    if (isCrsStateError(e, "REPAIR_FAILED")) throw e;
    throw new CrsStateError(
      "REPAIR_FAILED",
      `journal: cutting project ${damage.projectId} from record ${damage.seq} failed`,
      { projectId: damage.projectId },
      { cause: e },
    );
  }
  return { action: tornTail ? "cut-torn-tail" : "cut-after-corruption", fromSeq: damage.seq, records, reason: damage.reason };
}
