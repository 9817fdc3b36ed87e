/** Whether a delta computed from an older snapshot would overwrite an entry changed after it. */

import type { Delta } from "../delta/delta.js";
import { deltaTouches } from "./delta-touches.js";
import { ENTRY_INDEXES, type EntryIndex } from "./mod-generations.js";

/** An entry a delta touches, and the generation that last changed it. */
export interface ChangedEntry {
  /** Index of the entry. */
  readonly index: EntryIndex;
  /** Its key. */
  readonly key: string;
  /** The generation that last changed it. */
  readonly generation: number;
}

/**
 * The first entry `delta` would change that a mutation after generation `basis` changed, or
 * undefined. Read from the modification generations, so every mutation counts (a proof update,
 * a propagation, a recorded similarity, a detected loop), not only the deltas a history keeps.
 */
export function entryChangedSince(
  state: { modGeneration(index: EntryIndex, key: string): number },
  delta: Delta,
  basis: number,
): ChangedEntry | undefined {
  const touched = deltaTouches(delta);
  for (const index of ENTRY_INDEXES) {
    for (const key of touched[index]) {
      const generation = state.modGeneration(index, key);
      if (generation > basis) return { index, key, generation };
    }
  }
  return undefined;
}
