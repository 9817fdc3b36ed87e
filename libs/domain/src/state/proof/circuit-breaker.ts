/** Circuit breaker: should a session stop calling a tool? */

import type { StateConfig } from "../config.js";
import type { ProjectState } from "../project-state.js";
import type { ProofStatus } from "../signals.js";
import { countToolExecutions } from "../steps/step-store.js";
import { DEFAULT_PROOF_NUMBER, PROOF_INFINITY } from "./proof-number.js";

/** Verdict of the circuit breaker. */
export interface CircuitBreakerResult {
  /** True when the tool should not be called again. */
  readonly shouldFire: boolean;
  /** Why. */
  readonly reason: string;
  /** Proof number consulted (10 when there is none). */
  readonly proofNumber: bigint;
  /** Status consulted. */
  readonly status: ProofStatus;
}

/** Proof node id that tracks a tool within a session. */
export function toolNodeId(sessionId: string, tool: string): string {
  return `session:${sessionId}:tool:${tool}`;
}

/** Threshold for `tool`: its configured value, else the default. */
export function circuitBreakerThreshold(config: StateConfig, tool: string): number {
  return Object.hasOwn(config.circuitBreakerThresholds, tool)
    ? (config.circuitBreakerThresholds[tool] as number)
    : config.defaultCircuitBreakerThreshold;
}

/** Uses the tool's proof entry when there is one, otherwise its execution count in the session. */
export function checkCircuitBreaker(
  state: ProjectState,
  config: StateConfig,
  target: { readonly sessionId: string; readonly tool: string },
): CircuitBreakerResult {
  const { sessionId, tool } = target;
  if (sessionId === "" || tool === "")
    return { shouldFire: false, reason: "invalid input: empty sessionID or tool", proofNumber: 0n, status: "unknown" };
  const pn = state.proofs.get(toolNodeId(sessionId, tool));
  if (pn === undefined) {
    const threshold = circuitBreakerThreshold(config, tool);
    const count = countToolExecutions(state.steps, sessionId, tool);
    if (count >= threshold)
      return {
        shouldFire: true,
        reason: `tool ${tool} called ${count} times (threshold: ${threshold})`,
        proofNumber: 0n,
        status: "unknown",
      };
    return {
      shouldFire: false,
      reason: "no proof data, execution count below threshold",
      proofNumber: DEFAULT_PROOF_NUMBER,
      status: "unknown",
    };
  }
  if (pn.status === "disproven") return { shouldFire: true, reason: `tool ${tool} is disproven`, proofNumber: pn.proof, status: pn.status };
  if (pn.proof >= PROOF_INFINITY)
    return { shouldFire: true, reason: `tool ${tool} proof exhausted: pn=${pn.proof}`, proofNumber: pn.proof, status: pn.status };
  return { shouldFire: false, reason: "proof number viable", proofNumber: pn.proof, status: pn.status };
}
