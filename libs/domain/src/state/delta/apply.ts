/**
 * Validates and applies a delta in one pass over persistent state. Each entry is checked
 * against the state the previous entries (and, in a composite, the previous siblings)
 * produced; a failure throws before anything is returned, so the caller's state is untouched.
 */

import {
  analyticsDoneKey,
  analyticsFoundKey,
  hasResults,
  pushAnalytics,
  storedRecord,
  validateAnalyticsRecord,
} from "../analytics/analytics-record.js";
import type { StateConfig } from "../config.js";
import { freezeConstraint, validateConstraint } from "../constraints/constraint.js";
import { addEdge, hasEdge, reaches, removeEdge } from "../dependency/dependency-index.js";
import { invalidDelta, isStateError, StateError } from "../errors.js";
import { appendHistory } from "../history/history-index.js";
import { isHardAction, validateProofNumber, type ProofNumber } from "../proof/proof-number.js";
import type { ProjectState } from "../project-state.js";
import { isHard, isValidSource, type SignalSource } from "../signals.js";
import { setDistance } from "../similarity/similarity-index.js";
import { streamingIncrement, streamingObserve } from "../streaming/streaming-index.js";
import type { AnalyticsDelta, ConstraintDelta, Delta, DependencyDelta, ProofDelta } from "./delta.js";

/** Inputs an apply needs besides the state. */
export interface ApplyContext {
  /** Unix ms of the mutation. */
  readonly at: number;
  /** Limits. */
  readonly config: StateConfig;
}

function prefixed<T>(field: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (isStateError(err)) throw err.withFieldPrefix(field);
    throw err;
  }
}

// A delta that removes or updates an entry that is not there: the reference's index-not-found.
function entryNotFound(index: "constraint" | "dependency", id: string, field: string): StateError {
  return new StateError("INDEX_ENTRY_NOT_FOUND", `index not found: ${index} ${id}`, { field, metadata: { index, id } });
}

// Entry checks shared with the single-entry calls (similarity, history, streaming, analytics)
// reject an argument; inside a delta the same fault is the delta's validation failing.
function asDeltaFault(err: unknown): unknown {
  return isStateError(err, "INVALID_ARGUMENT")
    ? new StateError("INVALID_DELTA", err.message, { field: err.field, cause: err.cause, metadata: err.metadata })
    : err;
}

function hardViolation(field: string, message: string): StateError {
  return new StateError("HARD_SIGNAL_VIOLATION", `soft signal cannot perform hard action: ${message}`, { field });
}

function applyProof(state: ProjectState, d: ProofDelta): ProjectState {
  const seen = new Set<string>();
  let proofs = state.proofs;
  d.updates.forEach((u, i) => {
    const f = `updates[${i}]`;
    if (typeof u.nodeId !== "string" || u.nodeId === "") throw invalidDelta(`${f}.nodeId`, "node_id must not be empty");
    if (seen.has(u.nodeId)) throw invalidDelta(`${f}.nodeId`, `duplicate proof update for node ${u.nodeId}`);
    seen.add(u.nodeId);
    validateProofNumber(u, f);
    // Per entry: the delta cannot vouch for more than it is, and hard actions need a hard entry.
    if (isHard(u.source) && !isHard(d.source))
      throw hardViolation(`${f}.source`, `${d.source} delta cannot carry a ${u.source} entry for node ${u.nodeId}`);
    if (isHardAction(u) && !isHard(u.source)) {
      throw hardViolation(`${f}.status`, `node ${u.nodeId} cannot be marked ${u.status.toUpperCase()} or exhausted by ${u.source} signal`);
    }
    // Replacing a decided value is a reset or revival, which is a hard action too.
    const current = proofs.get(u.nodeId);
    if (current !== undefined && isHardAction(current) && !isHard(u.source)) {
      throw hardViolation(
        `${f}.source`,
        `node ${u.nodeId} is ${current.status.toUpperCase()} and cannot be replaced by ${u.source} signal`,
      );
    }
    const value: ProofNumber = Object.freeze({
      proof: u.proof,
      disproof: u.disproof,
      status: u.status,
      source: u.source,
      updatedAt: u.updatedAt,
    });
    proofs = proofs.set(u.nodeId, value);
  });
  return { ...state, proofs };
}

/** A delta cannot vouch for more than it is: a soft delta carries only soft entries. */
function checkEntrySource(d: { readonly source: SignalSource }, entrySource: SignalSource, field: string): void {
  if (isHard(entrySource) && !isHard(d.source))
    throw hardViolation(`${field}.source`, `${d.source} delta cannot carry a ${entrySource} entry`);
}

/**
 * Validates the delta as a whole against the constraints before it, as the reference does
 * (removes and updates must exist, adds must not, ids unique within add and within update),
 * then removes, updates and adds in that order: removing and updating one id leaves the update.
 */
function applyConstraint(state: ProjectState, d: ConstraintDelta): ProjectState {
  const before = state.constraints;
  d.remove.forEach((id, i) => {
    if (!before.has(id)) throw entryNotFound("constraint", id, `remove[${i}]`);
  });
  const updated = new Set<string>();
  d.update.forEach((c, i) => {
    validateConstraint(c, `update[${i}]`);
    checkEntrySource(d, c.source, `update[${i}]`);
    if (updated.has(c.id)) throw invalidDelta(`update[${i}].id`, `duplicate update of constraint ${c.id}`);
    updated.add(c.id);
    if (!before.has(c.id)) throw entryNotFound("constraint", c.id, `update[${i}].id`);
  });
  const added = new Set<string>();
  d.add.forEach((c, i) => {
    validateConstraint(c, `add[${i}]`);
    checkEntrySource(d, c.source, `add[${i}]`);
    if (added.has(c.id)) throw new StateError("CONSTRAINT_EXISTS", `duplicate constraint ID ${c.id}`, { field: `add[${i}].id` });
    added.add(c.id);
    if (before.has(c.id)) throw new StateError("CONSTRAINT_EXISTS", `constraint ${c.id} already exists`, { field: `add[${i}].id` });
  });
  let constraints = before;
  for (const id of d.remove) constraints = constraints.remove(id);
  for (const c of d.update) constraints = constraints.set(c.id, freezeConstraint(c));
  for (const c of d.add) constraints = constraints.set(c.id, freezeConstraint(c));
  return { ...state, constraints };
}

function applyDependency(state: ProjectState, d: DependencyDelta): ProjectState {
  let dependency = state.dependency;
  d.remove.forEach((e, i) => {
    // Checked against the state before the delta, as constraint removals are: an edge named twice goes once.
    if (!hasEdge(state.dependency, e.from, e.to)) throw entryNotFound("dependency", `${e.from} -> ${e.to}`, `remove[${i}]`);
    dependency = removeEdge(dependency, e.from, e.to);
  });
  d.add.forEach((e, i) => {
    if (typeof e.from !== "string" || typeof e.to !== "string" || e.from === "" || e.to === "") {
      throw invalidDelta(`add[${i}]`, "dependency edge ids must not be empty");
    }
    if (e.from === e.to) throw invalidDelta(`add[${i}]`, `self-dependency not allowed: ${e.from}`);
    if (reaches(dependency, e.to, e.from)) {
      throw new StateError("DEPENDENCY_CYCLE", `cycle detected: ${e.from} -> ${e.to} -> ... -> ${e.from}`, { field: `add[${i}]` });
    }
    dependency = addEdge(dependency, e.from, e.to);
  });
  return { ...state, dependency };
}

/** `base`, or `base-<k>` for the first k that no retained record uses (equal runs in one composite). */
function derivedAnalyticsId(state: ProjectState, base: string): string {
  const taken = (id: string): boolean => state.analytics.some((r) => r.id === id);
  if (!taken(base)) return base;
  let k = 2;
  while (taken(`${base}-${k}`)) k++;
  return `${base}-${k}`;
}

function applyAnalytics(state: ProjectState, d: AnalyticsDelta, ctx: ApplyContext): ProjectState {
  validateAnalyticsRecord(d.record, "record");
  if (!isHard(d.source)) throw hardViolation("source", "analytics results set proven markers and need a hard source");
  const r = d.record;
  const id = r.id !== "" ? r.id : derivedAnalyticsId(state, `analytics-${r.queryType}-${r.queryTime}-${state.generation + 1}`);
  // The reference's marker value (proof 1, disproof 0, proven); only its source differs.
  const marker: ProofNumber = Object.freeze({ proof: 1n, disproof: 0n, status: "proven", source: d.source, updatedAt: ctx.at });
  let proofs = state.proofs.set(analyticsDoneKey(r.queryType), marker);
  if (hasResults(r)) proofs = proofs.set(analyticsFoundKey(r.queryType), marker);
  const analytics = pushAnalytics(state.analytics, storedRecord(r, id, ctx.config.maxResultsPerRecord), ctx.config.maxAnalyticsRecords);
  return { ...state, proofs, analytics };
}

/** List fields of each kind; checked up front so malformed input fails with a named field. */
const LIST_FIELDS: Record<Delta["kind"], readonly string[]> = {
  proof: ["updates"],
  constraint: ["add", "remove", "update"],
  similarity: ["updates"],
  dependency: ["add", "remove"],
  history: ["entries"],
  streaming: ["increments", "observed"],
  analytics: [],
  composite: ["deltas"],
};

function checkShape(d: Delta): void {
  const fields = LIST_FIELDS[d.kind];
  if (fields === undefined) throw invalidDelta("kind", `unknown delta type: ${String((d as { kind?: unknown }).kind)}`);
  for (const f of fields) {
    const list = (d as unknown as Record<string, unknown>)[f];
    if (!Array.isArray(list)) throw invalidDelta(f, `${f} must be a list`);
    list.forEach((item, i) => {
      if (item === null || (typeof item !== "object" && typeof item !== "string"))
        throw invalidDelta(`${f}[${i}]`, "list entries must be objects");
    });
  }
}

function applyOne(state: ProjectState, d: Delta, ctx: ApplyContext): ProjectState {
  if (d === null || typeof d !== "object") throw invalidDelta("", "delta must not be nil");
  checkShape(d);
  if (d.kind !== "composite" && !isValidSource(d.source))
    throw invalidDelta("source", `source ${String(d.source)} is not valid (must be hard, soft, or safety)`);
  switch (d.kind) {
    case "proof":
      return applyProof(state, d);
    case "constraint":
      return applyConstraint(state, d);
    case "similarity": {
      // setDistance validates the pair first; the prefix is added here, without a closure per entry.
      let similarity = state.similarity;
      d.updates.forEach((u, i) => {
        try {
          similarity = setDistance(similarity, u.a, u.b, u.distance, ctx.config.maxSimilarityPairs);
        } catch (err) {
          if (isStateError(err)) throw err.withFieldPrefix(`updates[${i}]`);
          throw err;
        }
      });
      return { ...state, similarity };
    }
    case "dependency":
      return applyDependency(state, d);
    case "history": {
      let history = state.history;
      d.entries.forEach((e, i) => {
        history = appendHistory(history, e, ctx.config.maxHistoryEntries, `entries[${i}]`);
        checkEntrySource(d, e.source, `entries[${i}]`);
      });
      return { ...state, history };
    }
    case "streaming": {
      let streaming = state.streaming;
      d.increments.forEach((inc, i) => {
        streaming = streamingIncrement(streaming, inc, `increments[${i}]`);
      });
      d.observed.forEach((item, i) => {
        streaming = streamingObserve(streaming, item, `observed[${i}]`);
      });
      return { ...state, streaming };
    }
    case "analytics":
      return applyAnalytics(state, d, ctx);
    case "composite":
      return d.deltas.reduce((s, child, i) => prefixed(`deltas[${i}]`, () => applyOne(s, child, ctx)), state);
    default:
      throw invalidDelta("kind", `unknown delta type: ${String((d as { kind?: unknown }).kind)}`);
  }
}

/** Validates and applies `delta`; returns the new state (generation unchanged) or throws. */
export function applyDeltaToState(state: ProjectState, delta: Delta, ctx: ApplyContext): ProjectState {
  try {
    return applyOne(state, delta, ctx);
  } catch (err) {
    throw asDeltaFault(err);
  }
}

/** Validates `delta` against `state` without keeping the result. */
export function validateDelta(state: ProjectState, delta: Delta, ctx: ApplyContext): void {
  applyDeltaToState(state, delta, ctx);
}
