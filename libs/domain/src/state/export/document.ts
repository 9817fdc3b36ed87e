/**
 * The state document: a lossless, JSON-safe image of every index of a project. Lists are in
 * a fixed order (keys sorted byte-wise; logs oldest first), so equal states give identical
 * documents. uint64 proof numbers are decimal strings. Proof entries, constraints, clauses and
 * similarity pairs carry their modification generation.
 *
 * Formats: 1 - delta records carry no `changeKind` (every one was read as `delta_applied`,
 * cycle-detection records included); 2 - every delta record carries its `changeKind`. A
 * document is written in the lowest format that expresses it, as events are: 1 while every
 * record is `delta_applied`, so a reader of format 1 refuses only the documents it would misread.
 * `replacedGeneration` (written only when set) needs no format of its own, as `config` did not: it
 * changes no index, so a reader that does not know it builds the same indexes and only answers
 * watches as it always did; a new format would make such a reader refuse every restored project.
 */

import type { AnalyticsRecord } from "../analytics/analytics-record.js";
import { allClauses } from "../clauses/clause-store.js";
import type { Clause } from "../clauses/clause.js";
import { compareUtf8, sortUtf8 } from "../bytes.js";
import type { StateConfig } from "../config.js";
import type { Constraint } from "../constraints/constraint.js";
import type { ChangeKind, DeltaRecord } from "../delta-history/delta-record.js";
import type { CycleDetectorState } from "../cycles/detector-state.js";
import { allEdges, type DependencyEdge } from "../dependency/dependency-index.js";
import { similarityEntryKey, type EntryIndex } from "../entries/mod-generations.js";
import type { HistoryEntry } from "../history/history-index.js";
import type { ProjectState } from "../project-state.js";
import type { ProofStatus, SignalSource } from "../signals.js";
import { allPairs, type SimilarityPair } from "../similarity/similarity-index.js";
import type { StepRecord } from "../steps/step-record.js";

/** The newest {@link StateDocument} format this engine writes; it reads every format from 1 up to it. */
export const STATE_DOCUMENT_FORMAT = 2;

/** A document format this engine reads. */
export type StateDocumentFormat = 1 | typeof STATE_DOCUMENT_FORMAT;

/** A delta record as a document holds it: `changeKind` in format 2, absent in format 1. */
export type DeltaRecordDocument = Omit<DeltaRecord, "changeKind"> & { readonly changeKind?: ChangeKind };

/** The lowest document format that expresses `state`: 2 once a delta record is of another kind than `delta_applied`. */
export function documentFormatOf(state: ProjectState): StateDocumentFormat {
  return state.deltaHistory.some((r) => r.changeKind !== "delta_applied") ? 2 : 1;
}

/** The generation that last changed an entry. */
export interface ModGenerationField {
  /** Generation of the mutation that last changed the entry (>= 1). */
  readonly modGeneration: number;
}

/** A proof entry with uint64 fields as decimal strings. */
export interface ProofEntryDocument {
  /** Node id. */
  readonly nodeId: string;
  /** Proof number, decimal. */
  readonly proof: string;
  /** Disproof number, decimal. */
  readonly disproof: string;
  /** Status. */
  readonly status: ProofStatus;
  /** Source. */
  readonly source: SignalSource;
  /** Unix ms. */
  readonly updatedAt: number;
  /** Generation of the mutation that last changed the entry. */
  readonly modGeneration: number;
}

/** One session's cycle detector. */
export interface CycleDetectorDocument {
  /** Session id. */
  readonly sessionId: string;
  /** Window capacity. */
  readonly maxHistory: number;
  /** Brent's power of two. */
  readonly power: number;
  /** States since the tortoise last moved. */
  readonly lambda: number;
  /** The tortoise's state; null before the first state after a reset. */
  readonly tortoise: string | null;
  /** Recent states, oldest first. */
  readonly window: readonly string[];
  /** States fed since the last reset. */
  readonly stepsProcessed: number;
  /** Lifetime detections. */
  readonly cyclesDetected: number;
  /** Unix ms of the last detection (0 = never). */
  readonly lastCycleAt: number;
}

/** The steps of one session. */
export interface SessionStepsDocument {
  /** Session id. */
  readonly sessionId: string;
  /** Next auto-assigned step number. */
  readonly nextNumber: number;
  /** Steps, oldest first. */
  readonly steps: readonly StepRecord[];
}

/** Sketch contents. */
export interface StreamingDocument {
  /** Count-Min width. */
  readonly width: number;
  /** Count-Min depth. */
  readonly depth: number;
  /** Sum of increments. */
  readonly total: number;
  /** Non-zero counters as [index, value], by index. */
  readonly counters: readonly (readonly [number, number])[];
  /** HyperLogLog precision. */
  readonly precision: number;
  /** Registers, one base-32 digit each. */
  readonly registers: string;
}

/** Lossless image of a project's state. */
export interface StateDocument {
  /** {@link documentFormatOf} the state it images. */
  readonly formatVersion: StateDocumentFormat;
  /** Generation of the state. */
  readonly generation: number;
  /** By node id. */
  readonly proofs: readonly ProofEntryDocument[];
  /** By id. */
  readonly constraints: readonly (Constraint & ModGenerationField)[];
  /** By id. */
  readonly clauses: readonly (Clause & ModGenerationField)[];
  /** Canonical pairs by (from, to). */
  readonly similarity: readonly (SimilarityPair & ModGenerationField)[];
  /** By (from, to). */
  readonly dependencies: readonly DependencyEdge[];
  /** Oldest first. */
  readonly history: readonly HistoryEntry[];
  /** Sketches. */
  readonly streaming: StreamingDocument;
  /** By session id. */
  readonly steps: readonly SessionStepsDocument[];
  /** Oldest first. */
  readonly analytics: readonly AnalyticsRecord[];
  /** Oldest first. */
  readonly deltaHistory: readonly DeltaRecordDocument[];
  /** By session id. */
  readonly cycleDetectors: readonly CycleDetectorDocument[];
  /** The project's limits; absent in documents written before limits were state (the reader's then apply). */
  readonly config?: StateConfig;
  /**
   * Generation of the last restore or import that replaced the state; absent when it never was
   * (and in documents written before it was kept, which read as never replaced).
   */
  readonly replacedGeneration?: number;
}

/** The document form of a detector. */
export function detectorToDocument(sessionId: string, d: CycleDetectorState): CycleDetectorDocument {
  const { maxHistory, power, lambda, stepsProcessed, cyclesDetected, lastCycleAt } = d;
  return {
    sessionId,
    maxHistory,
    power,
    lambda,
    tortoise: d.tortoise ?? null,
    window: d.window.toArray(),
    stepsProcessed,
    cyclesDetected,
    lastCycleAt,
  };
}

const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Encodes register values (0..35) as one digit each. */
export function encodeRegisters(values: Iterable<number>): string {
  let out = "";
  for (const v of values) out += DIGITS[v] ?? "0";
  return out;
}

/** Builds the document of `state`. */
export function toDocument(state: ProjectState): StateDocument {
  const counters: [number, number][] = [];
  state.streaming.frequency.counters.forEach((v, i) => {
    if (v !== 0) counters.push([i, v]);
  });
  const mod = (index: EntryIndex, key: string): number => state.modGenerations[index].get(key) ?? 0;
  const formatVersion = documentFormatOf(state);
  return {
    formatVersion,
    generation: state.generation,
    proofs: sortUtf8(state.proofs.keys()).map((nodeId) => {
      const p = state.proofs.get(nodeId)!;
      return {
        nodeId,
        proof: p.proof.toString(),
        disproof: p.disproof.toString(),
        status: p.status,
        source: p.source,
        updatedAt: p.updatedAt,
        modGeneration: mod("proof", nodeId),
      };
    }),
    constraints: [...state.constraints.values()]
      .sort((a, b) => compareUtf8(a.id, b.id))
      .map((c) => ({ ...c, modGeneration: mod("constraint", c.id) })),
    clauses: allClauses(state.clauses).map((c) => ({ ...c, modGeneration: mod("clause", c.id) })),
    similarity: allPairs(state.similarity).map((p) => ({ ...p, modGeneration: mod("similarity", similarityEntryKey(p.from, p.to)) })),
    dependencies: allEdges(state.dependency),
    history: state.history.entries.toArray(),
    streaming: {
      width: state.streaming.frequency.width,
      depth: state.streaming.frequency.depth,
      total: state.streaming.frequency.total,
      counters,
      precision: state.streaming.cardinality.precision,
      registers: encodeRegisters(state.streaming.cardinality.registers),
    },
    steps: sortUtf8(state.steps.keys()).map((sessionId) => {
      const s = state.steps.get(sessionId)!;
      return { sessionId, nextNumber: s.nextNumber, steps: s.steps.toArray() };
    }),
    analytics: state.analytics.toArray(),
    // Format 1 records are written as they were before kinds were kept: without the field.
    deltaHistory: formatVersion === 1 ? state.deltaHistory.map(({ changeKind: _, ...r }) => r).toArray() : state.deltaHistory.toArray(),
    cycleDetectors: sortUtf8(state.cycles.keys()).map((sessionId) => detectorToDocument(sessionId, state.cycles.get(sessionId)!)),
    config: { ...state.config, circuitBreakerThresholds: { ...state.config.circuitBreakerThresholds } },
    // Written only when set: the document of a state never replaced stays as it was before the field.
    ...(state.replacedGeneration > 0 ? { replacedGeneration: state.replacedGeneration } : {}),
  };
}
