import type { RolloutRecord } from "../decode/record.js";
import type { LifecycleFold } from "../lifecycle/fold.js";

/** Where a record lands: its position in the rollout and the task it falls in (-1 before the first). */
export type PlaceRecord = (r: RolloutRecord, seq: number, task: number) => void;

/**
 * Places each record in the task the lifecycle fold has open when it arrives. A compaction written
 * with no turn held may open the next implicit turn, which then starts at the compaction; records
 * from it on are held until the fold knows, and only they are.
 */
export class Attribution {
  readonly #lifecycle: LifecycleFold;
  readonly #place: PlaceRecord;
  #held: { r: RolloutRecord; seq: number }[] = [];
  #heldTask = -1;

  /** Places records of `lifecycle` through `place`, in file order. */
  constructor(lifecycle: LifecycleFold, place: PlaceRecord) {
    this.#lifecycle = lifecycle;
    this.#place = place;
  }

  /** Takes a record once its event (if any) has been pushed into the lifecycle fold. */
  take(r: RolloutRecord, seq: number): void {
    const lc = this.#lifecycle;
    if (lc.compactionPending) {
      // Nothing moves the current task while a compaction waits, so it is the one held records fall back to.
      if (this.#held.length === 0) this.#heldTask = lc.current;
      this.#held.push({ r, seq });
      return;
    }
    if (this.#held.length > 0) this.#release();
    this.#place(r, seq, lc.current);
  }

  /** Ends the input: held records stay with the task they were written in. */
  flush(): void {
    if (this.#held.length > 0) this.#release();
  }

  #release(): void {
    const lc = this.#lifecycle;
    const held = this.#held;
    this.#held = [];
    const row = lc.rows[lc.current];
    const opened = row?.implicit === true && row.openedAt === held[0]?.seq;
    const task = opened ? lc.current : this.#heldTask;
    for (const h of held) this.#place(h.r, h.seq, task);
  }
}
