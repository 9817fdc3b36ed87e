/** Delta history: a bounded log of applied deltas with their causes, queried by node or generation. */

import type { List } from "immutable";
import type { DeltaJson } from "../delta/codec.js";
import type { DeltaKind } from "../delta/delta.js";
import type { SignalSource } from "../signals.js";

/**
 * What wrote a delta record: `delta_applied` for a client's delta (StateService.Apply),
 * `cycle_detected` for the disproof a detected decision cycle makes. These are the only
 * mutations that write records; the others bump the generation without one.
 */
export type ChangeKind = "delta_applied" | "cycle_detected";

/** Every {@link ChangeKind}. */
export const CHANGE_KINDS: readonly ChangeKind[] = ["delta_applied", "cycle_detected"];

/** One applied delta. */
export interface DeltaRecord {
  /** `delta_<generation>`; unique because generations never repeat. */
  readonly id: string;
  /** Generation the delta produced. */
  readonly generation: number;
  /** Unix ms of the apply. */
  readonly at: number;
  /** Kind of the delta. */
  readonly kind: DeltaKind;
  /**
   * The mutation that wrote the record. Known for every record: a state document of format 1
   * has none on its records, which all read as `delta_applied` (see `export/document.ts`).
   */
  readonly changeKind: ChangeKind;
  /** Effective source of the delta. */
  readonly source: SignalSource;
  /** Who applied it (the caller's label, "" when none). */
  readonly label: string;
  /** Session on whose behalf it was applied ("" when none). */
  readonly sessionId: string;
  /** Caller metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Nodes touched, sorted byte-wise. */
  readonly affectedNodes: readonly string[];
  /** The delta itself, JSON-safe. */
  readonly delta: DeltaJson;
}

/** Appends a record, dropping the oldest beyond `max`. */
export function pushDeltaRecord(log: List<DeltaRecord>, r: DeltaRecord, max: number): List<DeltaRecord> {
  let next = log.push(r);
  while (next.size > max) next = next.shift();
  return next;
}

/** Records with `from < generation <= to`, by generation ascending. */
export function deltaRange(log: List<DeltaRecord>, from: number, to: number): DeltaRecord[] {
  return log.filter((r) => r.generation > from && r.generation <= to).toArray();
}

/** Records that touched `node`, by generation ascending. */
export function deltasByNode(log: List<DeltaRecord>, node: string): DeltaRecord[] {
  return log.filter((r) => r.affectedNodes.includes(node)).toArray();
}

/** The record that produced generation `g`, if retained. */
export function deltaByGeneration(log: List<DeltaRecord>, g: number): DeltaRecord | undefined {
  // Generations increase along the log, so binary search finds it in O(log n).
  let lo = 0;
  let hi = log.size - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = log.get(mid) as DeltaRecord;
    if (r.generation === g) return r;
    if (r.generation < g) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/**
 * The causal chain of `node`: the records that touched it, plus, transitively, earlier
 * records that touched any node those records also touched. By generation ascending.
 */
export function explainNode(log: List<DeltaRecord>, node: string): DeltaRecord[] {
  const records = log.toArray();
  const wanted = new Set<string>([node]);
  const chosen = new Set<number>();
  // Walk newest to oldest so a record only pulls in causes that precede it.
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i] as DeltaRecord;
    if (r.affectedNodes.some((n) => wanted.has(n))) {
      chosen.add(i);
      for (const n of r.affectedNodes) wanted.add(n);
    }
  }
  return records.filter((_, i) => chosen.has(i));
}
