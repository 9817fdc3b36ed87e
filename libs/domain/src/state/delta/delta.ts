/** Deltas: the only way indexes change through `apply`. Plain, serializable data. */

import type { AnalyticsRecord } from "../analytics/analytics-record.js";
import type { Constraint } from "../constraints/constraint.js";
import type { DependencyEdge } from "../dependency/dependency-index.js";
import type { HistoryEntry } from "../history/history-index.js";
import type { ProofNumber } from "../proof/proof-number.js";
import { weakerSource, type SignalSource } from "../signals.js";
import type { StreamingIncrement } from "../streaming/streaming-index.js";

/** A proof value for one node; its own `source` is checked against the hard/soft boundary. */
export interface ProofEntry extends ProofNumber {
  /** Node whose value is replaced. */
  readonly nodeId: string;
}

/** Replaces proof numbers wholesale. */
export interface ProofDelta {
  /** Discriminator. */
  readonly kind: "proof";
  /** Authority of the delta; soft deltas may carry only soft entries. */
  readonly source: SignalSource;
  /** New values, at most one per node. */
  readonly updates: readonly ProofEntry[];
}

/** Removes, updates and adds constraints, in that order. */
export interface ConstraintDelta {
  /** Discriminator. */
  readonly kind: "constraint";
  /** Authority of the delta. */
  readonly source: SignalSource;
  /** Constraints to add (ids must be new). */
  readonly add: readonly Constraint[];
  /** Ids to remove (must exist). */
  readonly remove: readonly string[];
  /** Replacements by id (must exist). */
  readonly update: readonly Constraint[];
}

/** One similarity distance to store. */
export interface SimilarityUpdate {
  /** One node. */
  readonly a: string;
  /** The other node. */
  readonly b: string;
  /** Finite non-negative distance. */
  readonly distance: number;
}

/** Stores similarity distances. */
export interface SimilarityDelta {
  /** Discriminator. */
  readonly kind: "similarity";
  /** Authority of the delta. */
  readonly source: SignalSource;
  /** Distances, applied in order. */
  readonly updates: readonly SimilarityUpdate[];
}

/** Removes, then adds, dependency edges. */
export interface DependencyDelta {
  /** Discriminator. */
  readonly kind: "dependency";
  /** Authority of the delta. */
  readonly source: SignalSource;
  /** Edges to add; none may close a cycle. */
  readonly add: readonly DependencyEdge[];
  /** Edges to remove; each must exist. */
  readonly remove: readonly DependencyEdge[];
}

/** Appends history entries. */
export interface HistoryDelta {
  /** Discriminator. */
  readonly kind: "history";
  /** Authority of the delta. */
  readonly source: SignalSource;
  /** Entries, appended in order. */
  readonly entries: readonly HistoryEntry[];
}

/** Adds streaming observations. */
export interface StreamingDelta {
  /** Discriminator. */
  readonly kind: "streaming";
  /** Authority of the delta. */
  readonly source: SignalSource;
  /** Frequency increments. */
  readonly increments: readonly StreamingIncrement[];
  /** Items seen, counted for cardinality only. */
  readonly observed: readonly string[];
}

/** Records an analysis run and its proof markers. */
export interface AnalyticsDelta {
  /** Discriminator. */
  readonly kind: "analytics";
  /** Authority; analysis results are hard facts, so soft is rejected. */
  readonly source: SignalSource;
  /** The run. */
  readonly record: AnalyticsRecord;
}

/** Applies children in order, atomically; each child sees its earlier siblings' effects. */
export interface CompositeDelta {
  /** Discriminator. */
  readonly kind: "composite";
  /** Children. */
  readonly deltas: readonly Delta[];
}

/** Any delta. */
export type Delta =
  | ProofDelta
  | ConstraintDelta
  | SimilarityDelta
  | DependencyDelta
  | HistoryDelta
  | StreamingDelta
  | AnalyticsDelta
  | CompositeDelta;

/** Delta kinds, in the reference's enum order. */
export type DeltaKind = Delta["kind"];

/** All kinds in enum order. */
export const DELTA_KINDS: readonly DeltaKind[] = [
  "proof",
  "constraint",
  "similarity",
  "dependency",
  "history",
  "streaming",
  "composite",
  "analytics",
];

/** Index names a delta may touch. */
export type IndexName = "proof" | "constraint" | "similarity" | "dependency" | "history" | "streaming" | "analytics";

/** Effective authority: a composite is only as strong as its weakest child (soft when empty). */
export function deltaSource(d: Delta): SignalSource {
  if (d.kind !== "composite") return d.source;
  if (d.deltas.length === 0) return "soft";
  return d.deltas.map(deltaSource).reduce(weakerSource);
}

/** Indexes a delta touches, de-duplicated in first-seen order. */
export function indexesAffected(d: Delta): IndexName[] {
  if (d.kind === "analytics") return ["analytics", "proof"];
  if (d.kind !== "composite") return [d.kind];
  const out: IndexName[] = [];
  for (const child of d.deltas) for (const name of indexesAffected(child)) if (!out.includes(name)) out.push(name);
  return out;
}

/** Composes deltas into one composite. */
export function compositeDelta(...deltas: Delta[]): CompositeDelta {
  return { kind: "composite", deltas };
}
