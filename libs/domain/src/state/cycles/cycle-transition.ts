/**
 * Cycle detection as a mutation: feeding a state key to a session's detector is one
 * transition, and when the key closes a loop the same transition disproves the loop's states
 * (a hard proof delta, recorded in the delta history) and records a circuit-breaker step.
 */

import type { ProofEntry } from "../delta/delta.js";
import { pushDeltaRecord, type DeltaRecord } from "../delta-history/delta-record.js";
import { invalidArgument } from "../errors.js";
import { DEFAULT_PROOF_NUMBER, PROOF_INFINITY } from "../proof/proof-number.js";
import type { CycleRule } from "../events/event.js";
import type { ProjectState } from "../project-state.js";
import { makeStep, type StepRecord } from "../steps/step-record.js";
import { recordStep } from "../steps/step-store.js";
import { bump, deltaRecord, type TransitionContext } from "../engine/transitions.js";
import {
  detectorStats,
  emptyDetector,
  feedDetector,
  feedDetectorBrent,
  MAX_CYCLE_HISTORY,
  resetDetector,
  type CycleDetection,
  type CycleDetectorStats,
} from "./detector-state.js";

/** What feeding one state key did. */
export interface CycleCheckResult {
  /** The detector's verdict. */
  readonly detection: CycleDetection;
  /** Proof nodes disproven because they lie on the loop (empty unless detected), sorted as first seen in the loop. */
  readonly disproven: readonly string[];
  /** The circuit-breaker step recorded on detection. */
  readonly breakerStep: StepRecord | undefined;
  /** The change record written on detection (the loop's disproofs), for the caller to check before the state moves. */
  readonly record: DeltaRecord | undefined;
  /** The detector's counters after the feed. */
  readonly stats: CycleDetectorStats;
}

/** Proof node that tracks a state of a session. */
export function stateNodeId(sessionId: string, stateKey: string): string {
  return `session:${sessionId}:state:${stateKey}`;
}

/** Checks a window capacity; INVALID_ARGUMENT naming `maxHistory` otherwise. */
export function validateMaxHistory(maxHistory: number): void {
  if (!Number.isSafeInteger(maxHistory) || maxHistory <= 0 || maxHistory > MAX_CYCLE_HISTORY) {
    throw invalidArgument("maxHistory", `max_history must be an integer within 1..${MAX_CYCLE_HISTORY}`);
  }
}

function validateSession(sessionId: string): void {
  if (typeof sessionId !== "string" || sessionId === "") throw invalidArgument("sessionId", "session_id must not be empty");
}

/**
 * Feeds `stateKey` to the session's detector (created with `maxHistory` when absent) by `rule`
 * (`brent` only for events journaled before the first-repeat rule). On a detected loop: every
 * distinct state of the loop becomes a hard disproven proof entry and a forced circuit-breaker
 * step is recorded, all under this one generation.
 */
export function cycleCheckTransition(
  state: ProjectState,
  sessionId: string,
  stateKey: string,
  maxHistory: number,
  ctx: TransitionContext,
  rule: CycleRule = "first_repeat",
): { state: ProjectState; result: CycleCheckResult } {
  validateSession(sessionId);
  if (typeof stateKey !== "string" || stateKey === "") throw invalidArgument("stateKey", "state_key must not be empty");
  validateMaxHistory(maxHistory);
  if (rule !== "first_repeat" && rule !== "brent") throw invalidArgument("rule", "rule must be first_repeat or brent");
  const feed = rule === "brent" ? feedDetectorBrent : feedDetector;
  const { detector, detection } = feed(state.cycles.get(sessionId) ?? emptyDetector(maxHistory), stateKey, ctx.at);
  const cycles = state.cycles.set(sessionId, detector);
  if (!detection.detected) {
    return {
      state: bump(state, { ...state, cycles }),
      result: { detection, disproven: [], breakerStep: undefined, record: undefined, stats: detectorStats(detector) },
    };
  }
  const loop = `[${detection.cycle.join(" ")}]`;
  const updates: ProofEntry[] = [...new Set(detection.cycle)].map((key) => {
    const nodeId = stateNodeId(sessionId, key);
    const disproof = state.proofs.get(nodeId)?.disproof ?? DEFAULT_PROOF_NUMBER;
    return Object.freeze({ nodeId, proof: PROOF_INFINITY, disproof, status: "disproven", source: "hard", updatedAt: ctx.at });
  });
  let proofs = state.proofs;
  for (const { nodeId, ...value } of updates) proofs = proofs.set(nodeId, Object.freeze(value));
  const breaker = makeStep({
    sessionId,
    actor: "system",
    decision: "circuit_breaker",
    outcome: "forced",
    reasoning: `Brent's algorithm detected cycle of length ${detection.cycleLength}: ${loop}`,
  });
  const recorded = recordStep(state.steps, breaker, ctx.at, ctx.config.maxStepsPerSession);
  const record = deltaRecord(
    { kind: "proof", source: "hard", updates },
    { sessionId, metadata: { reason: `cycle_detected:${loop}` }, label: "cycle_detector", changeKind: "cycle_detected" },
    state.generation + 1,
    ctx.at,
  );
  const deltaHistory = pushDeltaRecord(state.deltaHistory, record, ctx.config.maxDeltaRecords);
  const disproven = updates.map((u) => u.nodeId);
  const next = bump(state, { ...state, cycles, proofs, steps: recorded.store, deltaHistory }, { proof: disproven });
  return { state: next, result: { detection, disproven, breakerStep: recorded.step, record, stats: detectorStats(detector) } };
}

/** Resets the session's detector (creating an empty one when absent) with window `maxHistory`. */
export function cycleResetTransition(
  state: ProjectState,
  sessionId: string,
  maxHistory: number,
): { state: ProjectState; result: CycleDetectorStats } {
  validateSession(sessionId);
  validateMaxHistory(maxHistory);
  const current = state.cycles.get(sessionId);
  const detector = current === undefined ? emptyDetector(maxHistory) : resetDetector(current, maxHistory);
  return { state: bump(state, { ...state, cycles: state.cycles.set(sessionId, detector) }), result: detectorStats(detector) };
}
