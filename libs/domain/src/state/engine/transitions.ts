/**
 * Pure transitions: one function per kind of mutation, shared by the live engine and by
 * replay so both compute exactly the same state. Each returns the next state with the
 * generation already bumped by one.
 */

import { addClause, endSessionClauses, expireClauses, touchClause, type ClauseInput } from "../clauses/clause-store.js";
import type { StateConfig } from "../config.js";
import { applyDeltaToState } from "../delta/apply.js";
import { affectedNodes } from "../delta/affected-nodes.js";
import { deltaToJson } from "../delta/codec.js";
import { deltaSource, type Delta } from "../delta/delta.js";
import { pushDeltaRecord } from "../delta-history/delta-record.js";
import { dependedBy } from "../dependency/dependency-index.js";
import { invalidArgument } from "../errors.js";
import { deepFreeze } from "../freeze.js";
import { PROOF_INFINITY } from "../proof/proof-number.js";
import { applyProofUpdate, nextProofNumber, type ProofUpdate } from "../proof/proof-update.js";
import { freezeIndexes, type ProjectState } from "../project-state.js";
import { setDistance } from "../similarity/similarity-index.js";
import type { StepRecord } from "../steps/step-record.js";
import { recordStep } from "../steps/step-store.js";

/** Inputs every transition needs besides the state. */
export interface TransitionContext {
  /** Unix ms of the mutation. */
  readonly at: number;
  /** Limits. */
  readonly config: StateConfig;
}

function bump(state: ProjectState, next: Omit<ProjectState, "generation">): ProjectState {
  return Object.freeze(freezeIndexes({ ...next, generation: state.generation + 1 }));
}

/** Applies a delta and appends its delta-history record. */
export function deltaTransition(
  state: ProjectState,
  delta: Delta,
  sessionId: string,
  metadata: Readonly<Record<string, string>>,
  ctx: TransitionContext,
): ProjectState {
  if (typeof sessionId !== "string") throw invalidArgument("sessionId", "session_id must be a string");
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) throw invalidArgument("metadata", "metadata must be an object");
  for (const [k, v] of Object.entries(metadata)) {
    if (typeof v !== "string") throw invalidArgument(`metadata.${k}`, "metadata values must be strings");
  }
  const applied = applyDeltaToState(state, delta, ctx);
  const generation = state.generation + 1;
  const record = Object.freeze({
    id: `delta_${generation}`,
    generation,
    at: ctx.at,
    kind: delta.kind,
    source: deltaSource(delta),
    sessionId,
    metadata: Object.freeze({ ...metadata }),
    affectedNodes: Object.freeze(affectedNodes(delta)),
    delta: deepFreeze(deltaToJson(delta)),
  });
  return bump(state, { ...applied, deltaHistory: pushDeltaRecord(applied.deltaHistory, record, ctx.config.maxDeltaRecords) });
}

/** Applies an incremental proof update. */
export function proofUpdateTransition(state: ProjectState, u: ProofUpdate, ctx: TransitionContext): ProjectState {
  return bump(state, { ...state, proofs: applyProofUpdate(state.proofs, u, ctx.at).proofs });
}

/**
 * Breadth-first over dependents of `nodeId`: each dependent is incremented once (hard, by 1)
 * and the walk continues through dependents that are, or become, disproven or exhausted, up to
 * the depth limit. Returns the state (unchanged generation when nothing was affected) and the
 * affected nodes in visit order.
 */
export function propagateDisproofTransition(state: ProjectState, nodeId: string, ctx: TransitionContext): { state: ProjectState; affected: string[] } {
  if (typeof nodeId !== "string" || nodeId === "") throw invalidArgument("nodeId", "node_id must not be empty");
  let proofs = state.proofs;
  const visited = new Set<string>([nodeId]);
  const affected: string[] = [];
  let frontier = [nodeId];
  for (let depth = 0; depth < ctx.config.maxPropagationDepth && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const current of frontier) {
      for (const parent of dependedBy(state.dependency, current)) {
        if (visited.has(parent)) continue;
        visited.add(parent);
        const u: ProofUpdate = { nodeId: parent, type: "increment", delta: 1n, reason: `child_disproven:${current}`, source: "hard" };
        const value = nextProofNumber(proofs.get(parent), u, ctx.at);
        proofs = proofs.set(parent, value);
        affected.push(parent);
        if (value.status === "disproven" || value.proof >= PROOF_INFINITY) next.push(parent);
      }
    }
    frontier = next;
  }
  if (affected.length === 0) return { state, affected };
  return { state: bump(state, { ...state, proofs }), affected };
}

/** Records a step (numbered, stamped); the step must already be sanitized. */
export function stepTransition(state: ProjectState, step: StepRecord, ctx: TransitionContext): { state: ProjectState; step: StepRecord } {
  const r = recordStep(state.steps, step, ctx.at, ctx.config.maxStepsPerSession);
  return { state: bump(state, { ...state, steps: r.store }), step: r.step };
}

/** Ends a session: drops its steps and its session-scoped clauses; the generation moves only when something was dropped. */
export function endSessionTransition(state: ProjectState, sessionId: string): { state: ProjectState; removedClauses: string[] } {
  if (typeof sessionId !== "string" || sessionId === "") throw invalidArgument("sessionId", "session_id must not be empty");
  const r = endSessionClauses(state.clauses, sessionId);
  if (r.removed.length === 0 && !state.steps.has(sessionId)) return { state, removedClauses: [] };
  return { state: bump(state, { ...state, steps: state.steps.remove(sessionId), clauses: r.store }), removedClauses: r.removed };
}

/** Learns or refreshes a clause. */
export function clauseTransition(state: ProjectState, input: ClauseInput, ctx: TransitionContext): { state: ProjectState; result: ReturnType<typeof addClause> } {
  const result = addClause(state.clauses, input, ctx.at, ctx.config.maxClauses);
  return { state: bump(state, { ...state, clauses: result.store }), result };
}

/** Records that a clause blocked a decision. */
export function clauseUseTransition(state: ProjectState, clauseId: string, ctx: TransitionContext): ProjectState {
  return bump(state, { ...state, clauses: touchClause(state.clauses, clauseId, ctx.at) });
}

/** Collects expired clauses; the generation moves only when something was removed. */
export function clauseGcTransition(state: ProjectState, ctx: TransitionContext): { state: ProjectState; removed: string[] } {
  const r = expireClauses(state.clauses, ctx.at, ctx.config.clauseTtlMs);
  if (r.removed.length === 0) return { state, removed: [] };
  return { state: bump(state, { ...state, clauses: r.store }), removed: r.removed };
}

/** Stores one similarity distance. */
export function similarityTransition(state: ProjectState, a: string, b: string, distance: number, ctx: TransitionContext): ProjectState {
  // The direct path words a negative distance as the reference's RecordSimilarity does; keys are checked first.
  if (typeof a === "string" && a !== "" && typeof b === "string" && b !== "" && a !== b && typeof distance === "number" && distance < 0) {
    throw invalidArgument("distance", `similarity distance must be non-negative: ${a}-${b}`);
  }
  return bump(state, { ...state, similarity: setDistance(state.similarity, a, b, distance, ctx.config.maxSimilarityPairs) });
}

/** Replaces the content with a checkpoint's; the generation still moves forward and the delta history is kept. */
export function restoreTransition(state: ProjectState, checkpoint: ProjectState): ProjectState {
  return bump(state, { ...checkpoint, deltaHistory: state.deltaHistory });
}
