/** Whole-session cycle analysis: decision graph of a session's steps, then Tarjan SCC. */

import { invalidArgument } from "../errors.js";
import type { StepRecord } from "../steps/step-record.js";
import { stepStateKey } from "./cycle-detector.js";
import { tarjanScc, type DecisionGraph } from "./tarjan.js";

/** Result of analysing one session. */
export interface CycleAnalysis {
  /** The session. */
  readonly sessionId: string;
  /** Number of components. */
  readonly totalSccs: number;
  /** Components with more than one state, in completion order. */
  readonly cyclicSccs: readonly (readonly string[])[];
  /** Size of the largest cyclic component (0 when none). */
  readonly largestSccSize: number;
}

/** Graph of state keys with an edge for each change of key between consecutive steps. */
export function buildDecisionGraph(steps: readonly StepRecord[]): DecisionGraph {
  const nodes: string[] = [];
  const seen = new Set<string>();
  const edges: [string, string][] = [];
  let prev: string | undefined;
  for (const s of steps) {
    const key = stepStateKey(s);
    if (!seen.has(key)) {
      seen.add(key);
      nodes.push(key);
    }
    if (prev !== undefined && prev !== key) edges.push([prev, key]);
    prev = key;
  }
  return { nodes, edges };
}

/** Finds the loops in a session's decisions. */
export function analyzeSessionCycles(sessionId: string, steps: readonly StepRecord[]): CycleAnalysis {
  if (sessionId === "") throw invalidArgument("sessionId", "sessionID must not be empty");
  const sccs = steps.length === 0 ? [] : tarjanScc(buildDecisionGraph(steps));
  const cyclicSccs = sccs.filter((c) => c.length > 1);
  return { sessionId, totalSccs: sccs.length, cyclicSccs, largestSccSize: cyclicSccs.reduce((m, c) => Math.max(m, c.length), 0) };
}
