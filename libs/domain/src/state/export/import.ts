/**
 * Import: turns a state document back into state, validating every entry with the same
 * rules the live engine applies. Any problem is IMPORT_INVALID naming the field, and
 * nothing is produced.
 */

import { List, Map as IMap } from "immutable";
import { storedRecord, validateAnalyticsRecord, type AnalyticsRecord } from "../analytics/analytics-record.js";
import { duplicateKey, EMPTY_CLAUSES, orderIndexesOf, type ClauseStore } from "../clauses/clause-store.js";
import { validateClause, type Clause } from "../clauses/clause.js";
import { watchAll } from "../clauses/watch-index.js";
import { resolveConfig, type StateConfig } from "../config.js";
import { freezeConstraint, validateConstraint, type Constraint } from "../constraints/constraint.js";
import { parseUint64 } from "../delta/codec.js";
import { addEdge, EMPTY_DEPENDENCY, reaches } from "../dependency/dependency-index.js";
import { invalidArgument, isStateError, StateError } from "../errors.js";
import { frozenWith } from "../freeze.js";
import { historyOf } from "../history/history-index.js";
import { validateProofNumber, type ProofNumber } from "../proof/proof-number.js";
import { similarityEntryKey, type EntryIndex } from "../entries/mod-generations.js";
import { freezeIndexes, type ProjectState } from "../project-state.js";
import { EMPTY_SIMILARITY, setDistance, validateSimilarityPair } from "../similarity/similarity-index.js";
import { validateStep } from "../steps/step-record.js";
import { recordStep, type StepStore } from "../steps/step-store.js";
import { STATE_DOCUMENT_FORMAT, type ModGenerationField, type StateDocument, type StreamingDocument } from "./document.js";
import { importDeltaRecords } from "./import-delta-records.js";
import { importCycleDetectors, readModGeneration, readReplacedGeneration } from "./import-entries.js";
import type { StreamingIndex } from "../streaming/streaming-index.js";

function list<T>(value: unknown, field: string): readonly T[] {
  if (!Array.isArray(value)) throw invalidArgument(field, `${field} must be a list`);
  return value as T[];
}

function importStreaming(doc: StreamingDocument): StreamingIndex {
  const { width, depth, precision } = doc;
  if (!Number.isSafeInteger(width) || width <= 0) throw invalidArgument("streaming.width", "width must be a positive integer");
  if (!Number.isSafeInteger(depth) || depth <= 0) throw invalidArgument("streaming.depth", "depth must be a positive integer");
  if (!Number.isSafeInteger(precision) || precision < 4 || precision > 18)
    throw invalidArgument("streaming.precision", "precision must be within 4..18");
  if (!Number.isSafeInteger(doc.total) || doc.total < 0) throw invalidArgument("streaming.total", "total must be a non-negative integer");
  const counters = List<number>()
    .setSize(width * depth)
    .map(() => 0)
    .withMutations((l) => {
      list<readonly [number, number]>(doc.counters, "streaming.counters").forEach(([i, v], k) => {
        if (!Number.isSafeInteger(i) || i < 0 || i >= width * depth || !Number.isSafeInteger(v) || v <= 0) {
          throw invalidArgument(`streaming.counters[${k}]`, "counter must be [index, positive value] within the sketch");
        }
        l.set(i, v);
      });
    });
  if (typeof doc.registers !== "string" || doc.registers.length !== 2 ** precision) {
    throw invalidArgument("streaming.registers", "registers must hold one digit per register");
  }
  const registers = List<number>(
    [...doc.registers].map((ch, i) => {
      const v = Number.parseInt(ch, 36);
      if (!Number.isInteger(v) || v > 33) throw invalidArgument(`streaming.registers[${i}]`, "register digit out of range");
      return v;
    }),
  );
  return { frequency: { width, depth, total: doc.total, counters }, cardinality: { precision, registers } };
}

function importClauses(clauses: readonly (Clause & ModGenerationField)[], mods: ModCollector): ClauseStore {
  let { clauses: byId, bySignature } = EMPTY_CLAUSES;
  const stored: Clause[] = [];
  clauses.forEach(({ modGeneration, ...c }, i) => {
    mods.add("clause", c.id, modGeneration, `clauses[${i}]`);
    try {
      validateClause(c);
    } catch (err) {
      throw isStateError(err) ? err.withFieldPrefix(`clauses[${i}]`) : err;
    }
    const sig = duplicateKey(c);
    if (byId.has(c.id) || bySignature.has(sig)) throw invalidArgument(`clauses[${i}]`, `duplicate clause ${c.id}`);
    const frozen: Clause = frozenWith(c, { literals: Object.freeze(c.literals.map((l) => frozenWith(l))) });
    byId = byId.set(c.id, frozen);
    bySignature = bySignature.set(sig, c.id);
    stored.push(frozen);
  });
  // Watched all at once: registering clause by clause is quadratic in the clauses sharing a slot.
  return { clauses: byId, bySignature, watches: watchAll(stored), ...orderIndexesOf(stored) };
}

function importSteps(doc: StateDocument, config: StateConfig): StepStore {
  let store: StepStore = IMap();
  list<StateDocument["steps"][number]>(doc.steps, "steps").forEach((session, i) => {
    if (!Number.isSafeInteger(session.nextNumber) || session.nextNumber < 1)
      throw invalidArgument(`steps[${i}].nextNumber`, "nextNumber must be >= 1");
    list(session.steps, `steps[${i}].steps`).forEach((step, j) => {
      try {
        validateStep(step as never);
        if ((step as { sessionId: string }).sessionId !== session.sessionId)
          throw invalidArgument("sessionId", "step belongs to another session");
        store = recordStep(store, step as never, 0, config.maxStepsPerSession).store;
      } catch (err) {
        throw isStateError(err) ? err.withFieldPrefix(`steps[${i}].steps[${j}]`) : err;
      }
    });
    const bucket = store.get(session.sessionId);
    if (bucket !== undefined)
      store = store.set(session.sessionId, Object.freeze({ ...bucket, nextNumber: Math.max(bucket.nextNumber, session.nextNumber) }));
  });
  return store;
}

/** Collects the modification generations of the imported entries. */
class ModCollector {
  private readonly maps: Record<EntryIndex, Map<string, number>> = {
    proof: new Map(),
    constraint: new Map(),
    clause: new Map(),
    similarity: new Map(),
  };

  constructor(private readonly generation: number) {}

  add(index: EntryIndex, key: string, value: unknown, field: string): void {
    this.maps[index].set(key, readModGeneration(value, field, this.generation));
  }

  build(): ProjectState["modGenerations"] {
    const { proof, constraint, clause, similarity } = this.maps;
    return Object.freeze({ proof: IMap(proof), constraint: IMap(constraint), clause: IMap(clause), similarity: IMap(similarity) });
  }
}

// The document's own limits, or `fallback` for a document written before limits were state.
function importConfig(doc: StateDocument, fallback: StateConfig): StateConfig {
  if (doc.config === undefined) return fallback;
  if (doc.config === null || typeof doc.config !== "object" || Array.isArray(doc.config))
    throw invalidArgument("config", "config must be an object");
  try {
    return resolveConfig(doc.config);
  } catch (err) {
    throw isStateError(err) ? invalidArgument(`config.${err.field ?? ""}`, err.message.replace(/^state: /, "")) : err;
  }
}

function build(doc: StateDocument, fallbackConfig: StateConfig): ProjectState {
  if (doc === null || typeof doc !== "object") throw invalidArgument("", "document must be an object");
  const config = importConfig(doc, fallbackConfig);
  if (typeof doc.formatVersion !== "number") throw invalidArgument("formatVersion", "formatVersion must be a number");
  if (!Number.isSafeInteger(doc.generation) || doc.generation < 0)
    throw invalidArgument("generation", "generation must be a non-negative integer");
  const mods = new ModCollector(doc.generation);
  const proofs = IMap<string, ProofNumber>().withMutations((m) => {
    list<StateDocument["proofs"][number]>(doc.proofs, "proofs").forEach((p, i) => {
      const value: ProofNumber = Object.freeze({
        proof: parseUint64(p.proof, `proofs[${i}].proof`),
        disproof: parseUint64(p.disproof, `proofs[${i}].disproof`),
        status: p.status,
        source: p.source,
        updatedAt: p.updatedAt,
      });
      validateProofNumber(value, `proofs[${i}]`);
      if (typeof p.nodeId !== "string" || p.nodeId === "" || m.has(p.nodeId))
        throw invalidArgument(`proofs[${i}].nodeId`, "node ids must be non-empty and unique");
      mods.add("proof", p.nodeId, p.modGeneration, `proofs[${i}]`);
      m.set(p.nodeId, value);
    });
  });
  const constraints = IMap<string, Constraint>().withMutations((m) => {
    list<Constraint & ModGenerationField>(doc.constraints, "constraints").forEach(({ modGeneration, ...c }, i) => {
      validateConstraint(c, `constraints[${i}]`);
      mods.add("constraint", c.id, modGeneration, `constraints[${i}]`);
      if (m.has(c.id)) throw invalidArgument(`constraints[${i}].id`, `duplicate constraint ${c.id}`);
      m.set(c.id, freezeConstraint(c));
    });
  });
  let similarity = EMPTY_SIMILARITY;
  list<StateDocument["similarity"][number]>(doc.similarity, "similarity").forEach((p, i) => {
    validateSimilarityPair(p.from, p.to, p.distance, `similarity[${i}]`);
    if (similarity.adjacency.get(p.from)?.has(p.to)) throw invalidArgument(`similarity[${i}]`, "duplicate similarity pair");
    similarity = setDistance(similarity, p.from, p.to, p.distance, Number.MAX_SAFE_INTEGER);
    mods.add("similarity", similarityEntryKey(p.from, p.to), p.modGeneration, `similarity[${i}]`);
  });
  let dependency = EMPTY_DEPENDENCY;
  list<StateDocument["dependencies"][number]>(doc.dependencies, "dependencies").forEach((e, i) => {
    if (typeof e.from !== "string" || typeof e.to !== "string" || e.from === "" || e.to === "" || e.from === e.to) {
      throw invalidArgument(`dependencies[${i}]`, "edge ids must be non-empty and distinct");
    }
    if (reaches(dependency, e.to, e.from)) throw invalidArgument(`dependencies[${i}]`, "dependency edges form a cycle");
    dependency = addEdge(dependency, e.from, e.to);
  });
  const history = historyOf(list<StateDocument["history"][number]>(doc.history, "history"), "history");
  const analytics = List<AnalyticsRecord>(
    list<AnalyticsRecord>(doc.analytics, "analytics").map((r, i) => {
      validateAnalyticsRecord(r, `analytics[${i}]`);
      return storedRecord(r, r.id, r.results.length);
    }),
  );
  return Object.freeze(
    freezeIndexes({
      generation: doc.generation,
      proofs,
      constraints,
      clauses: importClauses(list<Clause & ModGenerationField>(doc.clauses, "clauses"), mods),
      similarity,
      dependency,
      history,
      streaming: importStreaming(doc.streaming),
      steps: importSteps(doc, config),
      analytics,
      deltaHistory: importDeltaRecords(list(doc.deltaHistory, "deltaHistory"), doc.formatVersion, doc.generation),
      cycles: importCycleDetectors(list(doc.cycleDetectors, "cycleDetectors")),
      modGenerations: mods.build(),
      config,
      replacedGeneration: readReplacedGeneration(doc.replacedGeneration, doc.generation),
    }),
  );
}

/** True when `doc` names a format version this engine does not read (it needs another reader, it is not malformed). */
export function isUnsupportedDocument(doc: unknown): doc is { readonly formatVersion: number } {
  if (doc === null || typeof doc !== "object") return false;
  const version = (doc as { readonly formatVersion?: unknown }).formatVersion;
  return typeof version === "number" && !(Number.isSafeInteger(version) && version >= 1 && version <= STATE_DOCUMENT_FORMAT);
}

/**
 * Rebuilds state from a document; IMPORT_INVALID (with the field) when anything is wrong. The
 * document's own limits apply; `config` only for a document that carries none.
 */
export function fromDocument(doc: StateDocument, config: StateConfig): ProjectState {
  // A document of another version is not malformed: it needs another reader, so say that.
  if (isUnsupportedDocument(doc)) {
    throw new StateError(
      "UNSUPPORTED_FORMAT",
      `import: document format ${doc.formatVersion} is not supported (this engine reads 1 to ${STATE_DOCUMENT_FORMAT})`,
      { field: "formatVersion" },
    );
  }
  try {
    return build(doc, config);
  } catch (err) {
    if (isStateError(err))
      throw new StateError("IMPORT_INVALID", `import: ${err.message.replace(/^state: /, "")}`, { field: err.field, cause: err });
    throw new StateError("IMPORT_INVALID", "import: malformed document", { cause: err });
  }
}
