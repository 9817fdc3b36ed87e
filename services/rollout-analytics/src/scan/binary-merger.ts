/**
 * Merges partials as they arrive while holding O(log n) of them: level i holds the merge of
 * 2^i partials, and a push carries upwards like a binary counter. Each sample is therefore
 * copied O(log n) times, and the merge being associative and commutative, the result does
 * not depend on arrival order. Scans merge corpus partials with it, usage reads usage partials.
 */
export class BinaryMerger<T> {
  readonly #levels: (T | null)[] = [];
  readonly #merge: (a: T, b: T) => T;
  readonly #empty: () => T;

  /** `merge` must be associative and commutative; `empty` is its identity. */
  constructor(merge: (a: T, b: T) => T, empty: () => T) {
    this.#merge = merge;
    this.#empty = empty;
  }

  /** Adds one partial. */
  push(partial: T): void {
    let carry = partial;
    for (let i = 0; ; i += 1) {
      const held = this.#levels[i] ?? null;
      if (held === null) {
        this.#levels[i] = carry;
        return;
      }
      this.#levels[i] = null;
      carry = this.#merge(held, carry);
    }
  }

  /** The merge of everything pushed (the identity when nothing was). */
  result(): T {
    let acc: T | null = null;
    for (const p of this.#levels) if (p !== null) acc = acc === null ? p : this.#merge(p, acc);
    return acc ?? this.#empty();
  }
}
