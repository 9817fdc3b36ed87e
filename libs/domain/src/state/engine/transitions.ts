/**
 * Pure transitions: one function per kind of mutation, reached through `runEvent` by the live
 * engine and by replay alike, so both compute exactly the same state. Each returns the next
 * state with the generation already bumped by one and the modification generations of the
 * entries it touched moved to that generation.
 */

import { addClause, endSessionClauses, expireClauses, touchClause, type ClauseInput } from "../clauses/clause-store.js";
import { resolveConfig, type StateConfig } from "../config.js";
import { applyDeltaToState } from "../delta/apply.js";
import { affectedNodes } from "../delta/affected-nodes.js";
import { deltaFromJson, deltaToJson, type DeltaJson } from "../delta/codec.js";
import { deltaSource, type Delta } from "../delta/delta.js";
import { pushDeltaRecord } from "../delta-history/delta-record.js";
import type { ChangeKind, DeltaRecord } from "../delta-history/delta-record.js";
import { dependedBy } from "../dependency/dependency-index.js";
import { deltaTouches } from "../entries/delta-touches.js";
import { allModified, markModified, similarityEntryKey, type TouchedEntries } from "../entries/mod-generations.js";
import { invalidArgument } from "../errors.js";
import { deepFreeze } from "../freeze.js";
import { checkSimilarityFits, fitToConfig } from "./fit-to-config.js";
import { PROOF_INFINITY } from "../proof/proof-number.js";
import { applyProofUpdate, nextProofNumber, type ProofUpdate } from "../proof/proof-update.js";
import { entryExists, freezeIndexes, type ProjectState } from "../project-state.js";
import { setDistance, unorderedPairs } from "../similarity/similarity-index.js";
import type { StepRecord } from "../steps/step-record.js";
import { recordStep } from "../steps/step-store.js";
import type { Clause } from "../clauses/clause.js";
import type { ClauseClock } from "../clauses/clause-lifetimes.js";

/** Inputs every transition needs besides the state. */
export interface TransitionContext {
  /** Unix ms of the mutation. */
  readonly at: number;
  /** Limits. */
  readonly config: StateConfig;
}

/** What a transition changes: the indexes it replaced; the others are the previous state's. */
export type StateChanges = Partial<Omit<ProjectState, "generation">>;

/** The next state: generation + 1, and the touched entries marked as changed at that generation. */
export function bump(state: ProjectState, next: StateChanges, touched: TouchedEntries = {}): ProjectState {
  const generation = state.generation + 1;
  // Every field written out: one object shape for every state, and no spread on this hot path.
  const draft: { -readonly [K in keyof ProjectState]: ProjectState[K] } = {
    generation,
    proofs: next.proofs ?? state.proofs,
    constraints: next.constraints ?? state.constraints,
    clauses: next.clauses ?? state.clauses,
    similarity: next.similarity ?? state.similarity,
    dependency: next.dependency ?? state.dependency,
    history: next.history ?? state.history,
    streaming: next.streaming ?? state.streaming,
    steps: next.steps ?? state.steps,
    analytics: next.analytics ?? state.analytics,
    deltaHistory: next.deltaHistory ?? state.deltaHistory,
    cycles: next.cycles ?? state.cycles,
    modGenerations: next.modGenerations ?? state.modGenerations,
    config: next.config ?? state.config,
    replacedGeneration: next.replacedGeneration ?? state.replacedGeneration,
  };
  draft.modGenerations = markModified(draft.modGenerations, touched, generation, (index, key) => entryExists(draft, index, key));
  return Object.freeze(freezeIndexes(draft, state));
}

/** Who applied a delta and why: the caller's session, metadata and label. */
export interface DeltaOrigin {
  /** Session on whose behalf ("" when none). */
  readonly sessionId: string;
  /** Caller metadata. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Who applied it ("" when not given). */
  readonly label: string;
}

function checkOrigin(origin: DeltaOrigin): void {
  if (typeof origin.sessionId !== "string") throw invalidArgument("sessionId", "session_id must be a string");
  if (typeof origin.label !== "string") throw invalidArgument("label", "label must be a string");
  const { metadata } = origin;
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata))
    throw invalidArgument("metadata", "metadata must be an object");
  for (const [k, v] of Object.entries(metadata)) {
    if (typeof v !== "string") throw invalidArgument(`metadata.${k}`, "metadata values must be strings");
  }
}

/** Who applied a delta and which mutation did: what a delta record keeps of its origin. */
export interface RecordOrigin extends DeltaOrigin {
  /** The mutation writing the record. */
  readonly changeKind: ChangeKind;
}

/** The delta-history record of `delta` producing generation `generation`; `json` is its JSON form when the caller has it. */
export function deltaRecord(delta: Delta, origin: RecordOrigin, generation: number, at: number, json?: DeltaJson): DeltaRecord {
  return Object.freeze({
    id: `delta_${generation}`,
    generation,
    at,
    kind: delta.kind,
    changeKind: origin.changeKind,
    source: deltaSource(delta),
    label: origin.label,
    sessionId: origin.sessionId,
    metadata: Object.freeze({ ...origin.metadata }),
    affectedNodes: Object.freeze(affectedNodes(delta)),
    delta: deepFreeze(json ?? deltaToJson(delta)),
  });
}

/** Applies a delta (decoded from `json`) and appends its delta-history record, which shares `json`. */
export function deltaTransition(state: ProjectState, json: DeltaJson, origin: DeltaOrigin, ctx: TransitionContext): ProjectState {
  checkOrigin(origin);
  const delta = deltaFromJson(json);
  const applied = applyDeltaToState(state, delta, ctx);
  // Always a client's delta: the label or metadata it carries cannot make it another kind.
  const kept: RecordOrigin = { sessionId: origin.sessionId, metadata: origin.metadata, label: origin.label, changeKind: "delta_applied" };
  const record = deltaRecord(delta, kept, state.generation + 1, ctx.at, json);
  return bump(
    state,
    { ...applied, deltaHistory: pushDeltaRecord(applied.deltaHistory, record, ctx.config.maxDeltaRecords) },
    deltaTouches(delta),
  );
}

/** Applies an incremental proof update. */
export function proofUpdateTransition(state: ProjectState, u: ProofUpdate, ctx: TransitionContext): ProjectState {
  return bump(state, { ...state, proofs: applyProofUpdate(state.proofs, u, ctx.at).proofs }, { proof: [u.nodeId] });
}

/**
 * Breadth-first over dependents of `nodeId`: each dependent is incremented once (hard, by 1)
 * and the walk continues through dependents that are, or become, disproven or exhausted, up to
 * the depth limit. Returns the state (unchanged generation when nothing was affected) and the
 * affected nodes in visit order.
 */
export function propagateDisproofTransition(
  state: ProjectState,
  nodeId: string,
  ctx: TransitionContext,
): { state: ProjectState; affected: string[] } {
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
  return { state: bump(state, { ...state, proofs }, { proof: affected }), affected };
}

/** Records a step (numbered, stamped); the step must already be sanitized. */
export function stepTransition(state: ProjectState, step: StepRecord, ctx: TransitionContext): { state: ProjectState; step: StepRecord } {
  const r = recordStep(state.steps, step, ctx.at, ctx.config.maxStepsPerSession);
  return { state: bump(state, { ...state, steps: r.store }), step: r.step };
}

/**
 * Ends a session: drops its steps, its session-scoped clauses and its cycle detector; the
 * generation moves only when something was dropped.
 */
export function endSessionTransition(state: ProjectState, sessionId: string): { state: ProjectState; removedClauses: string[] } {
  if (typeof sessionId !== "string" || sessionId === "") throw invalidArgument("sessionId", "session_id must not be empty");
  const r = endSessionClauses(state.clauses, sessionId);
  if (r.removed.length === 0 && !state.steps.has(sessionId) && !state.cycles.has(sessionId)) return { state, removedClauses: [] };
  const next = { ...state, steps: state.steps.remove(sessionId), clauses: r.store, cycles: state.cycles.remove(sessionId) };
  return { state: bump(state, next, { clause: r.removed }), removedClauses: r.removed };
}

/**
 * Learns or refreshes a clause. With `collectExpired`, the clauses expired at `ctx.at` are
 * removed first, in the same generation: an expired clause is neither refreshed back to life nor
 * counted toward the limit, and storage stays bounded without a call to collect.
 */
export function clauseTransition(
  state: ProjectState,
  input: ClauseInput,
  ctx: TransitionContext,
  collectExpired: boolean,
): { state: ProjectState; result: ReturnType<typeof addClause> & { readonly expired: readonly string[] } } {
  const expired = collectExpired ? expireClauses(state.clauses, clauseClock(ctx)) : { store: state.clauses, removed: [] };
  const result = addClause(expired.store, input, ctx.at, ctx.config.maxClauses);
  const touched = result.evicted === undefined ? [result.clause.id] : [result.evicted, result.clause.id];
  return {
    state: bump(state, { ...state, clauses: result.store }, { clause: [...expired.removed, ...touched] }),
    result: { ...result, expired: expired.removed },
  };
}

/** The clock clause checks and collections run by: the mutation's time and the project's TTL. */
function clauseClock(ctx: TransitionContext): ClauseClock {
  return { at: ctx.at, ttlMs: ctx.config.clauseTtlMs };
}

/** Records that a clause blocked a decision; returns the clause as stored now. */
export function clauseUseTransition(
  state: ProjectState,
  clauseId: string,
  ctx: TransitionContext,
): { state: ProjectState; clause: Clause } {
  const used = touchClause(state.clauses, clauseId, ctx.at);
  return { state: bump(state, { clauses: used.store }, { clause: [clauseId] }), clause: used.clause };
}

/** Collects expired clauses; the generation moves only when something was removed. */
export function clauseGcTransition(state: ProjectState, ctx: TransitionContext): { state: ProjectState; removed: string[] } {
  const r = expireClauses(state.clauses, clauseClock(ctx));
  if (r.removed.length === 0) return { state, removed: [] };
  return { state: bump(state, { ...state, clauses: r.store }, { clause: r.removed }), removed: r.removed };
}

/** Stores one similarity distance. */
export function similarityTransition(state: ProjectState, a: string, b: string, distance: number, ctx: TransitionContext): ProjectState {
  // The direct path words a negative distance as the reference's RecordSimilarity does; keys are checked first.
  if (typeof a === "string" && a !== "" && typeof b === "string" && b !== "" && a !== b && typeof distance === "number" && distance < 0) {
    throw invalidArgument("distance", `similarity distance must be non-negative: ${a}-${b}`);
  }
  const similarity = setDistance(state.similarity, a, b, distance, ctx.config.maxSimilarityPairs);
  return bump(state, { ...state, similarity }, { similarity: [similarityEntryKey(a, b)] });
}

/**
 * Every entry of `next` marked as changed at the next generation: a restore or import replaces
 * them all, and that generation is remembered as the replacement (whatever the incoming state
 * remembered). What was kept from the current state is fitted into the incoming limits.
 */
function replaced(state: ProjectState, incoming: Omit<ProjectState, "generation" | "modGenerations">): ProjectState {
  const generation = state.generation + 1;
  const next = fitToConfig({ ...incoming, modGenerations: state.modGenerations, replacedGeneration: generation }, incoming.config).state;
  const keys = {
    proof: next.proofs.keys(),
    constraint: next.constraints.keys(),
    clause: next.clauses.clauses.keys(),
    // Only marked, never listed: the sort allPairs does would be wasted here.
    similarity: unorderedPairs(next.similarity).map((p) => similarityEntryKey(p.from, p.to)),
  };
  return bump(state, { ...next, modGenerations: allModified(keys, generation) });
}

/**
 * Rolls the reasoning indexes (proofs, constraints, clauses, similarity, dependencies, history,
 * streaming, cycle detectors) and the configuration back to a checkpoint's. Steps, analytics
 * runs and the delta history are facts about what happened, so they are kept (cut to the
 * restored limits). The generation still moves forward.
 */
export function restoreTransition(state: ProjectState, checkpoint: ProjectState): ProjectState {
  return replaced(state, { ...checkpoint, steps: state.steps, analytics: state.analytics, deltaHistory: state.deltaHistory });
}

/** Replaces everything but the delta history with an imported state (its configuration included); the generation moves forward. */
export function importTransition(state: ProjectState, imported: ProjectState): ProjectState {
  return replaced(state, { ...imported, deltaHistory: state.deltaHistory });
}

/**
 * Makes `config` the project's limits: INVALID_CONFIG when a value is out of range,
 * CAPACITY_BELOW_CONTENT when it caps similarity pairs below those stored; otherwise bounded
 * indexes are cut to the new limits by their own eviction rules, in the same mutation.
 */
export function configTransition(state: ProjectState, config: StateConfig): ProjectState {
  const resolved = resolveConfig(config);
  checkSimilarityFits(state, resolved);
  const fitted = fitToConfig(state, resolved);
  return bump(state, fitted.state, { clause: fitted.evictedClauses });
}
