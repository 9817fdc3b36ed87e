/**
 * Online cycle handling for a session: feed each step's state key to a Brent detector and,
 * when a loop closes, disprove the loop's states (one hard proof delta) and record a
 * circuit-breaker step. Both are ordinary engine mutations, so both are journaled.
 */

import type { ProofEntry } from "../delta/delta.js";
import type { Mutation, StateEngine } from "../engine/engine.js";
import { PROOF_INFINITY } from "../proof/proof-number.js";
import { makeStep, type StepRecord } from "../steps/step-record.js";
import { stepStateKey, type BrentCycleDetector, type CycleDetection } from "./brent.js";

/** What happened when a step was checked. */
export interface CycleCheck {
  /** The detector's verdict. */
  readonly detection: CycleDetection;
  /** Mutations performed (empty unless a cycle was detected), in order. */
  readonly mutations: readonly Mutation<unknown>[];
}

/** Proof node that tracks a state of a session. */
export function stateNodeId(sessionId: string, stateKey: string): string {
  return `session:${sessionId}:state:${stateKey}`;
}

/** Checks `step` (as recorded, so stamped) for a closed loop and reacts to one. */
export function checkCycleOnStep(engine: StateEngine, step: StepRecord, detector: BrentCycleDetector): CycleCheck {
  const detection = detector.addStep(stepStateKey(step));
  if (!detection.detected) return { detection, mutations: [] };
  const states = [...new Set(detection.cycle)];
  const updates: ProofEntry[] = states.map((state) => {
    const current = engine.state.proofs.get(stateNodeId(step.sessionId, state));
    return { nodeId: stateNodeId(step.sessionId, state), proof: PROOF_INFINITY, disproof: current?.disproof ?? 10n, status: "disproven", source: "hard", updatedAt: step.timestamp };
  });
  const disproof = engine.apply({ kind: "proof", source: "hard", updates }, { sessionId: step.sessionId, metadata: { reason: `cycle_detected:[${detection.cycle.join(" ")}]` } });
  const breaker = engine.recordStep(
    makeStep({
      sessionId: step.sessionId,
      actor: "system",
      decision: "circuit_breaker",
      outcome: "forced",
      reasoning: `Brent's algorithm detected cycle of length ${detection.cycleLength}: [${detection.cycle.join(" ")}]`,
    }),
  );
  return { detection, mutations: [disproof, breaker] };
}
