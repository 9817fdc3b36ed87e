/** History index: a bounded, append-only log of decisions with unique entry ids. */

import { List, Set as ISet } from "immutable";
import { utf8Length } from "../bytes.js";
import { invalidArgument, invalidDelta } from "../errors.js";
import { frozenWith } from "../freeze.js";
import { isTimestamp } from "../proof/proof-number.js";
import { requireSource, type SignalSource } from "../signals.js";

/** One recorded decision. */
export interface HistoryEntry {
  /** Unique id among retained entries. */
  readonly id: string;
  /** Node the decision concerns ("" when none). */
  readonly nodeId: string;
  /** What was done. */
  readonly action: string;
  /** What came of it. */
  readonly result: string;
  /** Origin of the entry. */
  readonly source: SignalSource;
  /** Unix ms. */
  readonly timestamp: number;
  /** String metadata; keys at most 256 bytes, values at most 4096 bytes. */
  readonly metadata: Readonly<Record<string, string>>;
}

/** Persistent history state. */
export interface HistoryIndex {
  /** Entries, oldest first. */
  readonly entries: List<HistoryEntry>;
  /** Ids of retained entries, for uniqueness. */
  readonly ids: ISet<string>;
}

/** Longest metadata key, in UTF-8 bytes. */
export const MAX_METADATA_KEY_BYTES = 256;
/** Longest metadata value, in UTF-8 bytes. */
export const MAX_METADATA_VALUE_BYTES = 4096;

/** The empty history. */
export const EMPTY_HISTORY: HistoryIndex = { entries: List(), ids: ISet() };

/** Checks one entry's shape; throws INVALID_ARGUMENT naming the field. */
export function validateHistoryEntry(e: HistoryEntry, field: string): void {
  if (typeof e.id !== "string" || e.id === "") throw invalidArgument(`${field}.id`, "history entry ID cannot be empty");
  for (const key of ["nodeId", "action", "result"] as const) {
    if (typeof e[key] !== "string") throw invalidArgument(`${field}.${key}`, `${key} must be a string`);
  }
  requireSource(e.source, `${field}.source`);
  if (!isTimestamp(e.timestamp)) throw invalidArgument(`${field}.timestamp`, "timestamp must be non-negative Unix ms");
  if (e.metadata === null || typeof e.metadata !== "object" || Array.isArray(e.metadata))
    throw invalidArgument(`${field}.metadata`, "metadata must be an object");
  for (const [k, v] of Object.entries(e.metadata)) {
    if (k === "") throw invalidArgument(`${field}.metadata`, `history entry ${e.id} has empty metadata key`);
    if (utf8Length(k) > MAX_METADATA_KEY_BYTES)
      throw invalidArgument(`${field}.metadata`, `history entry ${e.id} metadata key too long (max 256)`);
    if (typeof v !== "string") throw invalidArgument(`${field}.metadata.${k}`, "metadata values must be strings");
    if (utf8Length(v) > MAX_METADATA_VALUE_BYTES)
      throw invalidArgument(`${field}.metadata.${k}`, `history entry ${e.id} metadata value too long (max 4096)`);
  }
}

// The entry as stored, once it is valid and its id is not among `ids`.
function checkedEntry(ids: { has(id: string): boolean }, entry: HistoryEntry, field: string): HistoryEntry {
  validateHistoryEntry(entry, field);
  if (ids.has(entry.id)) throw invalidDelta(`${field}.id`, `history entry ${entry.id} already exists`);
  return frozenWith(entry, { metadata: frozenWith(entry.metadata) });
}

/** Appends an entry, dropping the oldest beyond `max`; a retained duplicate id is INVALID_DELTA. */
export function appendHistory(index: HistoryIndex, entry: HistoryEntry, max: number, field: string): HistoryIndex {
  const frozen = checkedEntry(index.ids, entry, field);
  return trimHistory({ entries: index.entries.push(frozen), ids: index.ids.add(entry.id) }, max);
}

/**
 * The history of `entries`, oldest first, each checked as {@link appendHistory} checks it (under
 * `field[i]`), with no limit. Built in place: appending one by one copied the list's tail and the
 * id set's path for every entry.
 */
export function historyOf(entries: readonly HistoryEntry[], field: string): HistoryIndex {
  const ids = new Set<string>();
  const stored = List<HistoryEntry>().withMutations((l) => {
    entries.forEach((entry, i) => {
      l.push(checkedEntry(ids, entry, `${field}[${i}]`));
      ids.add(entry.id);
    });
  });
  return { entries: stored, ids: ISet(ids) };
}

/** The history cut to its newest `max` entries (oldest dropped); the same index when it fits. */
export function trimHistory(index: HistoryIndex, max: number): HistoryIndex {
  if (index.entries.size <= max) return index;
  let { entries, ids } = index;
  while (entries.size > max) {
    const oldest = entries.first() as HistoryEntry;
    entries = entries.shift();
    ids = ids.remove(oldest.id);
  }
  return { entries, ids };
}

/** Entries about `nodeId`, oldest first. */
export function traceNode(index: HistoryIndex, nodeId: string): HistoryEntry[] {
  return index.entries.filter((e) => e.nodeId === nodeId).toArray();
}

/** The last `n` entries, oldest first; empty for n <= 0. */
export function recentHistory(index: HistoryIndex, n: number): HistoryEntry[] {
  if (n <= 0) return [];
  return index.entries.slice(Math.max(0, index.entries.size - n)).toArray();
}
