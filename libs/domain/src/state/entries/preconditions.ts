/**
 * Per-entry preconditions of a mutation, like etcd's mod_revision compare: the caller names
 * entries with the modification generation it read (0 = the entry must not exist), and the
 * mutation fails with ENTRY_MODIFIED, changing nothing, when any differs.
 */

import { invalidArgument, StateError } from "../errors.js";
import type { ProjectState } from "../project-state.js";
import { canonicalSimilarityKey, ENTRY_INDEXES, type EntryIndex } from "./mod-generations.js";

/** One entry the caller expects at a given modification generation. */
export interface ExpectedEntry {
  /** Index of the entry. */
  readonly index: EntryIndex;
  /** Node id, constraint id, clause id, or a similarity pair key (`["a","b"]`, either order). */
  readonly key: string;
  /** The modification generation the caller read; 0 means the entry must not exist. */
  readonly modGeneration: number;
}

/** Current modification generation of an entry (0 when absent); similarity keys are canonicalised. */
export function modGenerationOf(state: ProjectState, index: EntryIndex, key: string): number {
  const canonical = index === "similarity" ? canonicalSimilarityKey(key, "key") : key;
  return state.modGenerations[index].get(canonical) ?? 0;
}

/** Throws INVALID_ARGUMENT for a malformed list and ENTRY_MODIFIED (key in field and metadata) for a differing entry. */
export function checkExpectedEntries(state: ProjectState, expected: readonly ExpectedEntry[] | undefined): void {
  if (expected === undefined) return;
  if (!Array.isArray(expected)) throw invalidArgument("expectedEntries", "expected_entries must be a list");
  // Every entry is checked for shape before any is compared, so bad input is always INVALID_ARGUMENT.
  const keys = expected.map((e: ExpectedEntry, i) => {
    const f = `expectedEntries[${i}]`;
    if (e === null || typeof e !== "object") throw invalidArgument(f, "expected entry must be an object");
    if (!ENTRY_INDEXES.includes(e.index))
      throw invalidArgument(`${f}.index`, `index ${String(e.index)} is not one of ${ENTRY_INDEXES.join(", ")}`);
    if (typeof e.key !== "string" || e.key === "") throw invalidArgument(`${f}.key`, "key must not be empty");
    if (!Number.isSafeInteger(e.modGeneration) || e.modGeneration < 0)
      throw invalidArgument(`${f}.modGeneration`, "mod_generation must be a non-negative integer");
    return e.index === "similarity" ? canonicalSimilarityKey(e.key, `${f}.key`) : e.key;
  });
  expected.forEach((e: ExpectedEntry, i) => {
    const key = keys[i] as string;
    const actual = state.modGenerations[e.index].get(key) ?? 0;
    if (actual !== e.modGeneration) {
      const what = e.modGeneration === 0 ? "exists" : actual === 0 ? "does not exist" : `was modified at generation ${actual}`;
      throw new StateError("ENTRY_MODIFIED", `${e.index} entry ${key} ${what} (expected mod generation ${e.modGeneration})`, {
        field: `expectedEntries[${i}].key`,
        metadata: { index: e.index, key, expected: String(e.modGeneration), actual: String(actual) },
      });
    }
  });
}
