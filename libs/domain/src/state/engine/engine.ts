/**
 * The engine of one project: holds the current state, stamps mutations with the injected
 * clock, bumps the generation, keeps a ring of recent snapshots, and returns one event per
 * mutation for the caller to journal.
 */

import type { ClauseCheckResult, ClauseInput } from "../clauses/clause-store.js";
import { checkAssignment } from "../clauses/clause-store.js";
import type { Assignment, Clause } from "../clauses/clause.js";
import { clauseString } from "../clauses/clause.js";
import { decisionAssignment } from "../clauses/decision-assignment.js";
import { resolveConfig, type StateConfig } from "../config.js";
import { analyzeSessionCycles, type CycleAnalysis } from "../cycles/session-cycles.js";
import { validateDelta } from "../delta/apply.js";
import { deltaToJson } from "../delta/codec.js";
import type { Delta, SimilarityUpdate } from "../delta/delta.js";
import { invalidArgument, StateError } from "../errors.js";
import { proofUpdateToJson, type StateEvent } from "../events/event.js";
import { applyEvent } from "../events/replay.js";
import { toDocument, type StateDocument } from "../export/document.js";
import { fromDocument } from "../export/import.js";
import { checkCircuitBreaker, type CircuitBreakerResult } from "../proof/circuit-breaker.js";
import type { ProofNumber } from "../proof/proof-number.js";
import type { ProofUpdate } from "../proof/proof-update.js";
import { EMPTY_STATE, type ProjectState } from "../project-state.js";
import { sanitizeSecrets } from "../sanitize/secret-sanitizer.js";
import { Snapshot } from "../snapshot.js";
import type { StepRecord } from "../steps/step-record.js";
import { SnapshotRing } from "./snapshot-ring.js";
import * as t from "./transitions.js";

/** Options of {@link StateEngine}. */
export interface EngineOptions {
  /** Limits; merged over the defaults. */
  readonly config?: Partial<StateConfig>;
  /** Clock returning Unix ms. @defaultValue a clock that always returns 0 */
  readonly now?: () => number;
  /** Text sanitizer for step records; `false` disables it. @defaultValue {@link sanitizeSecrets} */
  readonly sanitizer?: ((text: string) => string) | false;
  /** Starting state. @defaultValue the empty state */
  readonly initial?: ProjectState;
}

/** Options shared by every mutation. */
export interface MutationOptions {
  /** Fail with GENERATION_MISMATCH unless the current generation equals this. */
  readonly expectedGeneration?: number;
}

/** What a mutation returns: its result, the new generation and the event to journal. */
export interface Mutation<R> {
  /** Operation-specific result. */
  readonly result: R;
  /** Generation after the mutation. */
  readonly generation: number;
  /** The event, or undefined when nothing changed (the generation did not move). */
  readonly event: StateEvent | undefined;
}

/** A point-in-time copy of a project's state; O(1) to take and never changed afterwards. */
export interface Checkpoint {
  /** `checkpoint-<generation>`. */
  readonly id: string;
  /** Generation captured. */
  readonly generation: number;
  /** Unix ms. */
  readonly createdAt: number;
  /** The captured state. */
  readonly state: ProjectState;
}

/** Verdict of {@link StateEngine.checkDecisionAllowed}. */
export interface DecisionVerdict {
  /** False when a learned clause forbids the decision. */
  readonly allowed: boolean;
  /** Why not, or "". */
  readonly reason: string;
  /** The clause that blocked it. */
  readonly clause: Clause | undefined;
}

/** One project's engine. Not thread-safe by design: the owner serializes calls. */
export class StateEngine {
  /** Resolved limits. */
  readonly config: StateConfig;
  private readonly now: () => number;
  private readonly sanitize: ((text: string) => string) | undefined;
  private current: ProjectState;
  private readonly ring: SnapshotRing;

  /** Creates an engine; INVALID_CONFIG when limits are out of range. */
  constructor(options: EngineOptions = {}) {
    this.config = resolveConfig(options.config);
    this.now = options.now ?? (() => 0);
    this.sanitize = options.sanitizer === false ? undefined : (options.sanitizer ?? sanitizeSecrets);
    this.current = options.initial ?? EMPTY_STATE;
    this.ring = new SnapshotRing(this.config.snapshotRingSize);
    this.ring.push(new Snapshot(this.current, this.now()));
  }

  /** Current generation. */
  get generation(): number {
    return this.current.generation;
  }

  /** Current state value. */
  get state(): ProjectState {
    return this.current;
  }

  /** An O(1) snapshot of the current state. */
  snapshot(): Snapshot {
    return this.ring.latest() ?? new Snapshot(this.current, this.now());
  }

  /** The retained snapshot of generation `g`; SNAPSHOT_NOT_FOUND when it left the ring. */
  snapshotAt(g: number): Snapshot {
    const s = this.ring.at(g);
    if (s === undefined) throw new StateError("SNAPSHOT_NOT_FOUND", `no snapshot retained for generation ${g}`, { field: "generation" });
    return s;
  }

  /** How many generations `s` is behind the current state. */
  staleness(s: Snapshot): number {
    return this.current.generation - s.generation;
  }

  /** Throws SNAPSHOT_STALE when `s` is more than the configured limit behind. */
  assertFresh(s: Snapshot, limit = this.config.staleGenerationLimit): void {
    const behind = this.staleness(s);
    if (behind > limit) throw new StateError("SNAPSHOT_STALE", `snapshot is stale: ${behind} generations behind (limit ${limit})`, { field: "generation" });
  }

  private checkExpected(opts: MutationOptions): void {
    if (opts.expectedGeneration !== undefined && opts.expectedGeneration !== this.current.generation) {
      throw new StateError("GENERATION_MISMATCH", `expected generation ${opts.expectedGeneration}, current is ${this.current.generation}`, {
        field: "expectedGeneration",
      });
    }
  }

  private commit<R>(opts: MutationOptions, run: (at: number) => { state: ProjectState; result: R; event: Record<string, unknown> | undefined }): Mutation<R> {
    this.checkExpected(opts);
    const at = this.now();
    const { state, result, event } = run(at);
    if (state === this.current || event === undefined) return { result, generation: this.current.generation, event: undefined };
    this.current = state;
    this.ring.push(new Snapshot(state, at));
    return { result, generation: state.generation, event: Object.freeze({ ...event, generation: state.generation, at }) as StateEvent };
  }

  private ctx(at: number): t.TransitionContext {
    return { at, config: this.config };
  }

  /** Checks a delta against the current state without applying it; throws what `apply` would. */
  validate(delta: Delta): void {
    validateDelta(this.current, delta, this.ctx(this.now()));
  }

  /** Validates and applies a delta atomically. */
  apply(delta: Delta, opts: MutationOptions & { sessionId?: string; metadata?: Record<string, string> } = {}): Mutation<void> {
    const sessionId = opts.sessionId ?? "";
    const metadata = opts.metadata ?? {};
    return this.commit(opts, (at) => ({
      state: t.deltaTransition(this.current, delta, sessionId, metadata, this.ctx(at)),
      result: undefined,
      event: { type: "delta_applied", delta: deltaToJson(delta), sessionId, metadata: { ...metadata } },
    }));
  }

  /** Applies an incremental proof update; returns the stored value. */
  updateProof(update: ProofUpdate, opts: MutationOptions = {}): Mutation<ProofNumber> {
    if (update === null || typeof update !== "object") throw invalidArgument("update", "proof update must not be nil");
    return this.commit(opts, (at) => {
      const state = t.proofUpdateTransition(this.current, update, this.ctx(at));
      return { state, result: state.proofs.get(update.nodeId) as ProofNumber, event: { type: "proof_updated", update: proofUpdateToJson(update) } };
    });
  }

  /** Propagates a disproof to dependents atomically; returns the affected nodes in visit order. */
  propagateDisproof(nodeId: string, opts: MutationOptions = {}): Mutation<string[]> {
    return this.commit(opts, (at) => {
      const r = t.propagateDisproofTransition(this.current, nodeId, this.ctx(at));
      return { state: r.state, result: r.affected, event: r.affected.length > 0 ? { type: "disproof_propagated", nodeId } : undefined };
    });
  }

  /** Records a step after sanitizing its text; returns the stored step. */
  recordStep(step: StepRecord, opts: MutationOptions = {}): Mutation<StepRecord> {
    if (step === null || typeof step !== "object") throw invalidArgument("step", "step must not be nil");
    const clean = this.sanitizeStep(step);
    return this.commit(opts, (at) => {
      const r = t.stepTransition(this.current, clean, this.ctx(at));
      return { state: r.state, result: r.step, event: { type: "step_recorded", step: r.step } };
    });
  }

  private sanitizeStep(step: StepRecord): StepRecord {
    const s = this.sanitize;
    if (s === undefined) return step;
    // Non-object metadata is left for validation to reject with a named field.
    const metadata =
      step.metadata !== null && typeof step.metadata === "object" && !Array.isArray(step.metadata)
        ? Object.fromEntries(Object.entries(step.metadata).map(([k, v]) => [s(k), typeof v === "string" ? s(v) : v]))
        : step.metadata;
    const text = <T>(v: T): T => (typeof v === "string" ? (s(v) as T) : v);
    return { ...step, errorMessage: text(step.errorMessage), reasoning: text(step.reasoning), resultSummary: text(step.resultSummary), metadata };
  }

  /** Ends a session: drops its steps and session-scoped clauses; returns removed clause ids. */
  endSession(sessionId: string, opts: MutationOptions = {}): Mutation<string[]> {
    return this.commit(opts, () => {
      const r = t.endSessionTransition(this.current, sessionId);
      return { state: r.state, result: r.removedClauses, event: { type: "session_ended", sessionId } };
    });
  }

  /** Learns a clause, or refreshes an equal one. */
  addClause(input: ClauseInput, opts: MutationOptions = {}): Mutation<{ clause: Clause; outcome: "added" | "refreshed"; evicted: string | undefined }> {
    return this.commit(opts, (at) => {
      const r = t.clauseTransition(this.current, input, this.ctx(at));
      const { clause, outcome, evicted } = r.result;
      return { state: r.state, result: { clause, outcome, evicted }, event: { type: "clause_added", clause: { ...input, literals: input.literals.map((l) => ({ ...l })) } } };
    });
  }

  /** Checks an explicit assignment against the clauses; read-only. */
  checkAssignment(assignment: Assignment): ClauseCheckResult {
    return checkAssignment(this.current.clauses, assignment);
  }

  /** Asks whether `tool` may run next in the session; a blocking clause has its use recorded. */
  checkDecisionAllowed(sessionId: string, tool: string, opts: MutationOptions = {}): Mutation<DecisionVerdict> {
    this.checkExpected(opts);
    if (sessionId === "" || tool === "") return { result: { allowed: true, reason: "", clause: undefined }, generation: this.generation, event: undefined };
    const bucket = this.current.steps.get(sessionId);
    const recent = bucket === undefined ? [] : bucket.steps.slice(-2).toArray();
    const check = checkAssignment(this.current.clauses, decisionAssignment(recent, tool));
    if (!check.conflict || check.violatedClause === undefined) return { result: { allowed: true, reason: "", clause: undefined }, generation: this.generation, event: undefined };
    const id = check.violatedClause.id;
    return this.commit(opts, (at) => {
      const state = t.clauseUseTransition(this.current, id, this.ctx(at));
      const clause = state.clauses.clauses.get(id) as Clause;
      return { state, result: { allowed: false, reason: `violates learned clause ${id}: ${clauseString(clause)}`, clause }, event: { type: "clause_used", clauseId: id } };
    });
  }

  /** Removes clauses whose TTL passed; returns their ids sorted. */
  garbageCollectClauses(opts: MutationOptions = {}): Mutation<string[]> {
    return this.commit(opts, (at) => {
      const r = t.clauseGcTransition(this.current, this.ctx(at));
      return { state: r.state, result: r.removed, event: r.removed.length > 0 ? { type: "clauses_collected" } : undefined };
    });
  }

  /** Records one similarity distance. */
  recordSimilarity(pair: SimilarityUpdate, opts: MutationOptions = {}): Mutation<void> {
    if (pair === null || typeof pair !== "object") throw invalidArgument("pair", "similarity pair must not be nil");
    const { a, b, distance } = pair;
    return this.commit(opts, (at) => ({
      state: t.similarityTransition(this.current, a, b, distance, this.ctx(at)),
      result: undefined,
      event: { type: "similarity_recorded", a, b, distance },
    }));
  }

  /** Circuit-breaker verdict for a tool in a session. */
  checkCircuitBreaker(sessionId: string, tool: string): CircuitBreakerResult {
    return checkCircuitBreaker(this.current, this.config, { sessionId, tool });
  }

  /** Strongly connected loops in a session's recorded decisions. */
  analyzeSessionCycles(sessionId: string): CycleAnalysis {
    return analyzeSessionCycles(sessionId, this.current.steps.get(sessionId)?.steps.toArray() ?? []);
  }

  /** Captures the current state in O(1). */
  checkpoint(): Checkpoint {
    return Object.freeze({ id: `checkpoint-${this.current.generation}`, generation: this.current.generation, createdAt: this.now(), state: this.current });
  }

  /** Replaces the content with a checkpoint's; the generation moves forward, the delta history is kept. */
  restore(cp: Checkpoint, opts: MutationOptions = {}): Mutation<void> {
    if (cp === null || typeof cp !== "object" || cp.state === undefined) throw new StateError("INVALID_ARGUMENT", "restore: invalid checkpoint", { field: "checkpoint" });
    const document = toDocument(cp.state);
    return this.commit(opts, () => ({
      state: t.restoreTransition(this.current, cp.state),
      result: undefined,
      event: { type: "state_restored", checkpointId: cp.id, document },
    }));
  }

  /** Replaces the content with an imported document's, as a restore; IMPORT_INVALID changes nothing. */
  importDocument(doc: StateDocument, opts: MutationOptions = {}): Mutation<void> {
    const imported = fromDocument(doc, this.config);
    return this.restore({ id: `import-${imported.generation}`, generation: imported.generation, createdAt: this.now(), state: imported }, opts);
  }

  /** A new engine starting from this one's current state, with the same options. */
  fork(options: Omit<EngineOptions, "initial" | "config"> = {}): StateEngine {
    return new StateEngine({ config: this.config, now: options.now ?? this.now, sanitizer: options.sanitizer ?? this.sanitize ?? false, initial: this.current });
  }

  /** Applies a journaled event (for recovery); REPLAY_DIVERGED when it does not fit. */
  replay(event: StateEvent): void {
    const state = applyEvent(this.current, event, this.config);
    this.current = state;
    this.ring.push(new Snapshot(state, event.at));
  }

  /** Lossless document of the current state. */
  exportDocument(): StateDocument {
    return toDocument(this.current);
  }

  /** An engine whose state is imported from a document; IMPORT_INVALID when it is not valid. */
  static fromDocument(doc: StateDocument, options: Omit<EngineOptions, "initial"> = {}): StateEngine {
    const config = resolveConfig(options.config);
    return new StateEngine({ ...options, config, initial: fromDocument(doc, config) });
  }

  /** An engine rebuilt by replaying `events` from the empty state. */
  static fromEvents(events: Iterable<StateEvent>, options: Omit<EngineOptions, "initial"> = {}): StateEngine {
    const engine = new StateEngine(options);
    for (const e of events) engine.replay(e);
    return engine;
  }
}
