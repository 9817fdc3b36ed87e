import { emptyUsage, mergeUsage, type UsagePartial } from "@crs/domain/rollout";

/**
 * Merges usage partials as they arrive while holding O(log n) of them, like a binary counter:
 * level i holds the merge of 2^i partials. The merge is associative and commutative, so the
 * result does not depend on arrival order.
 */
export class UsageMerger {
  readonly #levels: (UsagePartial | null)[] = [];

  /** Adds one partial. */
  push(partial: UsagePartial): void {
    let carry = partial;
    for (let i = 0; ; i += 1) {
      const held = this.#levels[i] ?? null;
      if (held === null) {
        this.#levels[i] = carry;
        return;
      }
      this.#levels[i] = null;
      carry = mergeUsage(held, carry);
    }
  }

  /** The merge of everything pushed (empty usage when nothing was). */
  result(): UsagePartial {
    let acc: UsagePartial | null = null;
    for (const p of this.#levels) if (p !== null) acc = acc === null ? p : mergeUsage(p, acc);
    return acc ?? emptyUsage();
  }
}
