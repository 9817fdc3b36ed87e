import { emptyPartial, mergePartials, type CorpusPartial } from "@crs/domain/rollout";

/**
 * Merges partials as they arrive while holding O(log n) of them: level i holds the merge of
 * 2^i partials, and a push carries upwards like a binary counter. Each sample is therefore
 * copied O(log n) times, and the merge being associative and commutative, the result does
 * not depend on arrival order.
 */
export class PartialMerger {
  readonly #levels: (CorpusPartial | null)[] = [];

  /** Adds one partial. */
  push(partial: CorpusPartial): void {
    let carry = partial;
    for (let i = 0; ; i += 1) {
      const held = this.#levels[i] ?? null;
      if (held === null) {
        this.#levels[i] = carry;
        return;
      }
      this.#levels[i] = null;
      carry = mergePartials(held, carry);
    }
  }

  /** The merge of everything pushed (the empty partial when nothing was). */
  result(): CorpusPartial {
    let acc: CorpusPartial | null = null;
    for (const p of this.#levels) if (p !== null) acc = acc === null ? p : mergePartials(p, acc);
    return acc ?? emptyPartial();
  }
}
