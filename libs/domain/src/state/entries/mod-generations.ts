/**
 * Per-entry modification generations, like etcd's mod_revision: for every proof entry,
 * constraint, clause and similarity pair, the generation of the mutation that last changed
 * it. An absent entry has modification generation 0.
 */

import { Map as IMap } from "immutable";
import { compareUtf8 } from "../bytes.js";
import { invalidArgument } from "../errors.js";

/** Indexes whose entries carry a modification generation. */
export type EntryIndex = "proof" | "constraint" | "clause" | "similarity";

/** The indexes, in a fixed order. */
export const ENTRY_INDEXES: readonly EntryIndex[] = ["proof", "constraint", "clause", "similarity"];

/** key -> generation that last changed the entry, per index. */
export type ModGenerations = Readonly<Record<EntryIndex, IMap<string, number>>>;

/** No entries. */
export const EMPTY_MOD_GENERATIONS: ModGenerations = Object.freeze({
  proof: IMap<string, number>(),
  constraint: IMap<string, number>(),
  clause: IMap<string, number>(),
  similarity: IMap<string, number>(),
});

/** Keys a mutation touched, per index; each is marked changed if it still exists, forgotten otherwise. */
export type TouchedEntries = Partial<Record<EntryIndex, Iterable<string>>>;

/** The key of the similarity pair {a, b}: the JSON array of both ids, smaller first byte-wise. */
export function similarityEntryKey(a: string, b: string): string {
  return JSON.stringify(compareUtf8(a, b) <= 0 ? [a, b] : [b, a]);
}

/**
 * The two ids of a key made by {@link similarityEntryKey}. A key without a backslash holds no
 * escaped character, so neither id contains a quote and the first `","` divides them: read
 * without JSON.parse, which runs on every mutation that touches a pair.
 */
export function similarityKeyPair(key: string): readonly [string, string] {
  if (key.includes("\\")) return JSON.parse(key) as [string, string];
  const mid = key.indexOf('","');
  return [key.slice(2, mid), key.slice(mid + 3, key.length - 2)];
}

/** Canonical form of a similarity key given in either order; INVALID_ARGUMENT naming `field` when it is not a pair. */
export function canonicalSimilarityKey(key: string, field: string): string {
  let pair: unknown;
  try {
    pair = JSON.parse(key);
  } catch {
    pair = undefined;
  }
  if (!Array.isArray(pair) || pair.length !== 2 || pair.some((id) => typeof id !== "string" || id === "")) {
    throw invalidArgument(field, 'similarity key must be a JSON array of two node ids, e.g. ["a","b"]');
  }
  return similarityEntryKey(pair[0] as string, pair[1] as string);
}

/** Records that `touched` keys changed at `generation`; `exists` tells which ones are still present. */
export function markModified(
  mods: ModGenerations,
  touched: TouchedEntries,
  generation: number,
  exists: (index: EntryIndex, key: string) => boolean,
): ModGenerations {
  // Each index written out rather than spread into a copy: this runs on every mutation.
  const proof = markIn(mods.proof, "proof", touched.proof, generation, exists);
  const constraint = markIn(mods.constraint, "constraint", touched.constraint, generation, exists);
  const clause = markIn(mods.clause, "clause", touched.clause, generation, exists);
  const similarity = markIn(mods.similarity, "similarity", touched.similarity, generation, exists);
  if (proof === mods.proof && constraint === mods.constraint && clause === mods.clause && similarity === mods.similarity) return mods;
  return Object.freeze({ proof, constraint, clause, similarity });
}

function markIn(
  map: IMap<string, number>,
  index: EntryIndex,
  keys: Iterable<string> | undefined,
  generation: number,
  exists: (index: EntryIndex, key: string) => boolean,
): IMap<string, number> {
  if (keys === undefined) return map;
  let next = map;
  for (const key of keys) next = exists(index, key) ? next.set(key, generation) : next.remove(key);
  return next;
}

/** Every given key marked as changed at `generation` (a restore or an import replaces them all). */
export function allModified(keys: Record<EntryIndex, Iterable<string>>, generation: number): ModGenerations {
  const build = (list: Iterable<string>): IMap<string, number> =>
    IMap<string, number>().withMutations((m) => {
      for (const k of list) m.set(k, generation);
    });
  return Object.freeze({
    proof: build(keys.proof),
    constraint: build(keys.constraint),
    clause: build(keys.clause),
    similarity: build(keys.similarity),
  });
}
