/**
 * The engine of one project: holds the current state, stamps mutations with the injected
 * clock, bumps the generation, keeps a ring of recent snapshots, and returns one event per
 * mutation for the caller to journal.
 */

import type { ClauseCheckResult, ClauseInput } from "../clauses/clause-store.js";
import { checkAssignment, violatedClause } from "../clauses/clause-store.js";
import type { Assignment, Clause } from "../clauses/clause.js";
import { assignmentAfter } from "../clauses/decision-assignment.js";
import { decisionReason } from "../clauses/decision-reason.js";
import { resolveConfig, type StateConfig } from "../config.js";
import type { CycleCheckResult } from "../cycles/cycle-transition.js";
import type { CycleDetectorStats } from "../cycles/detector-state.js";
import { analyzeSessionCycles, type CycleAnalysis } from "../cycles/session-cycles.js";
import { validateDelta } from "../delta/apply.js";
import { deltaToJson } from "../delta/codec.js";
import type { Delta, SimilarityUpdate } from "../delta/delta.js";
import { checkExpectedEntries } from "../entries/preconditions.js";
import { invalidArgument, StateError } from "../errors.js";
import { eventFormatOf, proofUpdateToJson, type EventBody, type StateEvent } from "../events/event.js";
import { applyEvent } from "../events/replay.js";
import { toDocument, type StateDocument } from "../export/document.js";
import { fromDocument } from "../export/import.js";
import { checkCircuitBreaker, type CircuitBreakerResult } from "../proof/circuit-breaker.js";
import type { ProofNumber } from "../proof/proof-number.js";
import { refuseSoftChangeOfDecided, type ProofUpdate } from "../proof/proof-update.js";
import { emptyState, type ProjectState } from "../project-state.js";
import { sanitizeSecrets } from "../sanitize/secret-sanitizer.js";
import { Snapshot } from "../snapshot.js";
import type { StepRecord } from "../steps/step-record.js";
import type { ApplyOptions, Checkpoint, CycleOptions, DecisionVerdict, EngineOptions, Mutation, MutationOptions } from "./engine-types.js";
import { runEvent, type TransitionResults } from "./run-event.js";
import { SnapshotRing } from "./snapshot-ring.js";
import type { TransitionContext } from "./transitions.js";

/** Why a session id the sanitizer would change is refused. */
const SECRET_SESSION = "session_id looks like a secret; name the session by an id of its own";

export type { ApplyOptions, Checkpoint, CycleOptions, DecisionVerdict, EngineOptions, Mutation, MutationOptions } from "./engine-types.js";

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The verdict when no clause blocks; shared, so the allowed path allocates no verdict. */
const ALLOWED: DecisionVerdict = Object.freeze({ allowed: true, reason: "", clause: undefined });

/** A copy of a clause input for the event; malformed parts are kept for validation to name. */
function clauseInputCopy(input: ClauseInput): ClauseInput {
  if (!isObject(input)) return input;
  const literals = Array.isArray(input.literals) ? input.literals.map((l) => (isObject(l) ? { ...l } : l)) : input.literals;
  return { ...input, literals };
}

/** One project's engine. Not thread-safe by design: the owner serializes calls. */
export class StateEngine {
  /** The engine's clock (Unix ms): mutations are stamped and clause TTLs judged by it. */
  readonly now: () => number;
  private readonly sanitize: ((text: string) => string) | undefined;
  private current: ProjectState;
  private readonly ring: SnapshotRing;

  /**
   * Creates an engine; INVALID_CONFIG when limits are out of range. A given `initial` state
   * brings its own limits; `config` sets those of a new, empty state.
   */
  constructor(options: EngineOptions = {}) {
    this.now = options.now ?? (() => 0);
    this.sanitize = options.sanitizer === false ? undefined : (options.sanitizer ?? sanitizeSecrets);
    this.current = options.initial ?? emptyState(resolveConfig(options.config));
    this.ring = new SnapshotRing(this.config.snapshotRingSize);
    for (const s of options.retained ?? []) if (s.generation < this.current.generation || s.state === this.current) this.ring.push(s);
    if (this.ring.latest()?.state !== this.current) this.ring.push(new Snapshot(this.current, this.now()));
  }

  /** Limits in force: part of the state, changed by {@link StateEngine.updateConfig}. */
  get config(): StateConfig {
    return this.current.config;
  }

  // Moves to `state`, keeping as many snapshots as its configuration asks for.
  private advance(state: ProjectState, at: number): void {
    const previous = this.current.config.snapshotRingSize;
    this.current = state;
    if (state.config.snapshotRingSize !== previous) this.ring.resize(state.config.snapshotRingSize);
    this.ring.push(new Snapshot(state, at));
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

  /** Every retained snapshot, oldest first (the last is the current one). */
  retainedSnapshots(): Snapshot[] {
    return this.ring.snapshots();
  }

  /** How many generations `s` is behind the current state. */
  staleness(s: Snapshot): number {
    return this.current.generation - s.generation;
  }

  /** Throws SNAPSHOT_STALE when `s` is more than the configured limit behind. */
  assertFresh(s: Snapshot, limit = this.config.staleGenerationLimit): void {
    const behind = this.staleness(s);
    if (behind > limit)
      throw new StateError("SNAPSHOT_STALE", `snapshot is stale: ${behind} generations behind (limit ${limit})`, { field: "generation" });
  }

  private checkPreconditions(opts: MutationOptions): void {
    if (opts.expectedGeneration !== undefined && opts.expectedGeneration !== this.current.generation) {
      throw new StateError("GENERATION_MISMATCH", `expected generation ${opts.expectedGeneration}, current is ${this.current.generation}`, {
        field: "expectedGeneration",
        metadata: { expected_generation: String(opts.expectedGeneration), current_generation: String(this.current.generation) },
      });
    }
    checkExpectedEntries(this.current, opts.expectedEntries);
  }

  /**
   * Runs `body` through the one transition function and, when the state changed, stamps it
   * into the event to journal (`recorded` may replace the body with what was stored). The
   * event is frozen at its top; what it holds is the engine's own copy of the caller's input
   * (a delta's JSON is shared, deep-frozen, with its delta-history record).
   */
  private commit<B extends EventBody>(
    opts: MutationOptions,
    body: B,
    recorded?: (result: TransitionResults[B["type"]]) => B,
    admit?: (result: TransitionResults[B["type"]]) => void,
  ): Mutation<TransitionResults[B["type"]]> {
    this.checkPreconditions(opts);
    const at = this.now();
    const { state, result } = runEvent(this.current, body, this.ctx(at));
    if (state === this.current) return { result, generation: this.current.generation, event: undefined };
    // Last chance to refuse: the transition ran on an immutable copy, so nothing has changed yet.
    admit?.(result);
    this.advance(state, at);
    const journaled = recorded === undefined ? body : recorded(result);
    const event = Object.freeze({
      formatVersion: eventFormatOf(body.type),
      generation: state.generation,
      at,
      ...journaled,
    }) as unknown as StateEvent;
    return { result, generation: state.generation, event };
  }

  private ctx(at: number): TransitionContext {
    return { at, config: this.config };
  }

  /** Checks a delta against the current state without applying it; throws what `apply` would. */
  validate(delta: Delta): void {
    validateDelta(this.current, delta, this.ctx(this.now()));
  }

  /** Validates and applies a delta atomically; `label` says who applied it (kept in the delta history). */
  apply(delta: Delta, opts: ApplyOptions = {}): Mutation<void> {
    const metadata = opts.metadata ?? {};
    return this.commit(opts, {
      type: "delta_applied",
      delta: deltaToJson(delta),
      sessionId: opts.sessionId ?? "",
      metadata: isObject(metadata) ? { ...metadata } : metadata,
      label: opts.label ?? "",
    });
  }

  /** Applies an incremental proof update; returns the stored value. */
  updateProof(update: ProofUpdate, opts: MutationOptions = {}): Mutation<ProofNumber> {
    if (update === null || typeof update !== "object") throw invalidArgument("update", "proof update must not be nil");
    this.checkPreconditions(opts);
    refuseSoftChangeOfDecided(this.current.proofs, update);
    return this.commit(opts, { type: "proof_updated", update: proofUpdateToJson(update) });
  }

  /** Propagates a disproof to dependents atomically; returns the affected nodes in visit order. */
  propagateDisproof(nodeId: string, opts: MutationOptions = {}): Mutation<string[]> {
    return this.commit(opts, { type: "disproof_propagated", nodeId });
  }

  /** Records a step after sanitizing its text; returns the stored step (numbered and stamped), which is also what is journaled. */
  recordStep(step: StepRecord, opts: MutationOptions = {}): Mutation<StepRecord> {
    if (step === null || typeof step !== "object") throw invalidArgument("step", "step must not be nil");
    return this.commit(opts, { type: "step_recorded", step: this.sanitizeStep(step) }, (stored) => ({
      type: "step_recorded",
      step: stored,
    }));
  }

  // A key or id the sanitizer would change is refused, not redacted: it names state (steps, nodes,
  // detectors, clause literals), where distinct secrets would merge into one redacted name, and it
  // is journaled as given.
  private refuseSecret(value: unknown, field: string, message: string): void {
    if (typeof value === "string" && this.sanitize !== undefined && this.sanitize(value) !== value) throw invalidArgument(field, message);
  }

  private sanitizeStep(step: StepRecord): StepRecord {
    const s = this.sanitize;
    if (s === undefined) return step;
    // The tool names proof nodes, clause literals and execution counts, so it is refused rather
    // than redacted: distinct secrets would merge into one tool, and a redaction is no valid key.
    this.refuseSecret(step.tool, "tool", "tool looks like a secret; pass the tool's name instead");
    this.refuseSecret(step.sessionId, "sessionId", SECRET_SESSION);
    // Non-object metadata is left for validation to reject with a named field.
    const metadata = isObject(step.metadata)
      ? Object.fromEntries(Object.entries(step.metadata).map(([k, v]) => [s(k), typeof v === "string" ? s(v) : v]))
      : step.metadata;
    const text = <T>(v: T): T => (typeof v === "string" ? (s(v) as T) : v);
    return {
      ...step,
      errorMessage: text(step.errorMessage),
      reasoning: text(step.reasoning),
      resultSummary: text(step.resultSummary),
      metadata,
    };
  }

  /** Ends a session: drops its steps, session-scoped clauses and cycle detector; returns removed clause ids. */
  endSession(sessionId: string, opts: MutationOptions = {}): Mutation<string[]> {
    this.refuseSecret(sessionId, "sessionId", SECRET_SESSION);
    return this.commit(opts, { type: "session_ended", sessionId });
  }

  /** Learns a clause, or refreshes an equal one. */
  addClause(
    input: ClauseInput,
    opts: MutationOptions = {},
  ): Mutation<{ clause: Clause; outcome: "added" | "refreshed"; evicted: string | undefined; expired: readonly string[] }> {
    let learned = clauseInputCopy(input);
    if (isObject(learned)) this.refuseSecret(learned.sessionId, "sessionId", SECRET_SESSION);
    // A learned time after now would start the clause's time-to-live in the future and keep it
    // past every collection: it is taken as now. Clamped before the event is built, so the event
    // holds it and events journaled before this rule replay as they ran.
    if (isObject(learned) && typeof learned.learnedAt === "number" && learned.learnedAt > 0) {
      const now = this.now();
      if (learned.learnedAt > now) learned = { ...learned, learnedAt: now };
    }
    const m = this.commit(opts, { type: "clause_added", clause: learned, collectExpired: true });
    const { clause, outcome, evicted, expired } = m.result;
    return { ...m, result: { clause, outcome, evicted, expired } };
  }

  /**
   * Replaces the limits with `config` over the current ones (a given circuit-breaker map
   * replaces the whole map). Indexes above a lowered limit are cut by their own eviction rules
   * in the same mutation; INVALID_CONFIG for an out-of-range value, CAPACITY_BELOW_CONTENT for a
   * similarity cap below the stored pairs. Returns the configuration now in force.
   */
  updateConfig(config: Partial<StateConfig>, opts: MutationOptions = {}): Mutation<StateConfig> {
    if (config === null || typeof config !== "object") throw invalidArgument("config", "config must not be nil");
    return this.commit(opts, { type: "config_updated", config: resolveConfig({ ...this.config, ...config }) });
  }

  /** Checks an explicit assignment against the clauses live now; read-only. */
  checkAssignment(assignment: Assignment): ClauseCheckResult {
    return checkAssignment(this.current.clauses, assignment, { at: this.now(), ttlMs: this.config.clauseTtlMs });
  }

  /** Asks whether `tool` may run next in the session; a blocking clause (one whose TTL has not passed) has its use recorded. */
  checkDecisionAllowed(sessionId: string, tool: string, opts: MutationOptions = {}): Mutation<DecisionVerdict> {
    this.checkPreconditions(opts);
    if (sessionId === "" || tool === "") return { result: ALLOWED, generation: this.current.generation, event: undefined };
    const steps = this.current.steps.get(sessionId)?.steps;
    const n = steps === undefined ? 0 : steps.size;
    const assignment = assignmentAfter(steps?.get(n - 1), n > 1 ? steps?.get(n - 2) : undefined, tool);
    const found = violatedClause(this.current.clauses, assignment, { at: this.now(), ttlMs: this.config.clauseTtlMs }, sessionId);
    if (found === undefined) return { result: ALLOWED, generation: this.current.generation, event: undefined };
    const m = this.commit(opts, { type: "clause_used", clauseId: found.id });
    return { result: { allowed: false, reason: decisionReason(found), clause: m.result }, generation: m.generation, event: m.event };
  }

  /** Removes clauses whose TTL passed; returns their ids sorted. */
  garbageCollectClauses(opts: MutationOptions = {}): Mutation<string[]> {
    return this.commit(opts, { type: "clauses_collected" });
  }

  /** Records one similarity distance. */
  recordSimilarity(pair: SimilarityUpdate, opts: MutationOptions = {}): Mutation<void> {
    if (pair === null || typeof pair !== "object") throw invalidArgument("pair", "similarity pair must not be nil");
    const { a, b, distance } = pair;
    return this.commit(opts, { type: "similarity_recorded", a, b, distance });
  }

  /**
   * Feeds a state key to the session's Brent cycle detector (a key that looks like a secret is refused). Every
   * feed is a mutation; when the key closes a loop, the same mutation disproves the loop's
   * states and records a circuit-breaker step.
   */
  checkCycle(sessionId: string, stateKey: string, opts: CycleOptions = {}): Mutation<CycleCheckResult> {
    // Redacted keys would name different states alike (a false loop) and disprove a node outside the id grammar.
    this.refuseSecret(sessionId, "sessionId", SECRET_SESSION);
    this.refuseSecret(stateKey, "stateKey", "state_key looks like a secret; pass a digest of the state instead");
    const { admitRecord } = opts;
    return this.commit(
      opts,
      { type: "cycle_checked", sessionId, stateKey, maxHistory: opts.maxHistory ?? this.config.cycleHistory, rule: "first_repeat" },
      undefined,
      admitRecord === undefined
        ? undefined
        : (r) => {
            if (r.record !== undefined) admitRecord(r.record);
          },
    );
  }

  /** Resets the session's cycle detector (its window becomes `maxHistory`, else the configured one); the lifetime count is kept. */
  resetCycleDetector(sessionId: string, opts: CycleOptions = {}): Mutation<CycleDetectorStats> {
    this.refuseSecret(sessionId, "sessionId", SECRET_SESSION);
    return this.commit(opts, { type: "cycle_detector_reset", sessionId, maxHistory: opts.maxHistory ?? this.config.cycleHistory });
  }

  /** Circuit-breaker verdict for a tool in a session. */
  checkCircuitBreaker(sessionId: string, tool: string): CircuitBreakerResult {
    return checkCircuitBreaker(this.current, this.config, { sessionId, tool });
  }

  /** Strongly connected loops in a session's recorded decisions. */
  analyzeSessionCycles(sessionId: string): CycleAnalysis {
    return analyzeSessionCycles(sessionId, this.current.steps.get(sessionId)?.steps.toArray() ?? []);
  }

  /** Captures the current state in O(1) (cycle detectors included). */
  checkpoint(): Checkpoint {
    return Object.freeze({
      id: `checkpoint-${this.current.generation}`,
      generation: this.current.generation,
      createdAt: this.now(),
      state: this.current,
    });
  }

  /**
   * Rolls the reasoning indexes back to a checkpoint's; steps, analytics runs and the delta
   * history are kept, and the generation moves forward.
   */
  restore(cp: Checkpoint, opts: MutationOptions = {}): Mutation<void> {
    if (cp === null || typeof cp !== "object" || cp.state === undefined)
      throw new StateError("INVALID_ARGUMENT", "restore: invalid checkpoint", { field: "checkpoint" });
    return this.commit(opts, { type: "state_restored", checkpointId: cp.id, document: toDocument(cp.state) });
  }

  /** Replaces everything but the delta history with an imported document's; IMPORT_INVALID changes nothing. */
  importDocument(doc: StateDocument, opts: MutationOptions = {}): Mutation<void> {
    const imported = fromDocument(doc, this.config);
    return this.commit(opts, { type: "state_imported", document: toDocument(imported) });
  }

  /** A new engine starting from this one's current state, with the same options. */
  fork(options: Omit<EngineOptions, "initial" | "config"> = {}): StateEngine {
    return new StateEngine({
      config: this.config,
      now: options.now ?? this.now,
      sanitizer: options.sanitizer ?? this.sanitize ?? false,
      initial: this.current,
    });
  }

  /** Applies a journaled event (for recovery); REPLAY_DIVERGED when it does not fit. */
  replay(event: StateEvent): void {
    this.advance(applyEvent(this.current, event), event.at);
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
