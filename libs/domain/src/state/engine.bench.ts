/**
 * Benchmark: snapshot and single-entry apply cost at 1,000 and 1,000,000 proof entries
 * (printed as a ratio; persistent structures should keep the large state within 2x of the
 * small one), and decision-check latency with 1,000 clauses.
 * Run: node --import tsx libs/domain/src/state/engine.bench.ts
 */

import { Map as IMap } from "immutable";
import os from "node:os";
import { performance } from "node:perf_hooks";
import type { ProofNumber } from "./proof/proof-number.js";
import { EMPTY_STATE, type ProjectState } from "./project-state.js";
import { StateEngine } from "./engine/engine.js";
import { makeStep } from "./steps/step-record.js";

function stateWithProofs(n: number): ProjectState {
  const value: ProofNumber = { proof: 10n, disproof: 10n, status: "expanded", source: "soft", updatedAt: 1 };
  const proofs = IMap<string, ProofNumber>().withMutations((m) => {
    for (let i = 0; i < n; i++) m.set(`node-${i}`, value);
  });
  return { ...EMPTY_STATE, proofs };
}

/** Microseconds per call of one round of `ops` calls. */
function round(ops: number, fn: (i: number) => void, offset: number): number {
  const t0 = performance.now();
  for (let i = 0; i < ops; i++) fn(offset + i);
  return ((performance.now() - t0) * 1000) / ops;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/**
 * Times `fn` on the small and the large engine in alternating rounds, so machine noise and
 * garbage collection (both engines live on one heap) hit both sizes alike.
 */
function compare(name: string, ops: number, rounds: number, fn: (engine: StateEngine, n: number, i: number) => void): void {
  const small: number[] = [];
  const large: number[] = [];
  round(ops, (i) => fn(smallEngine, SMALL, i), 0); // warm-up
  round(ops, (i) => fn(largeEngine, LARGE, i), 0);
  for (let r = 0; r < rounds; r++) {
    small.push(round(ops, (i) => fn(smallEngine, SMALL, i), (r + 1) * ops));
    large.push(round(ops, (i) => fn(largeEngine, LARGE, i), (r + 1) * ops));
  }
  const s = median(small);
  const l = median(large);
  const best = Math.min(...large) / Math.min(...small);
  console.log(
    `${name.padEnd(22)} 1k: ${s.toFixed(3).padStart(8)} us   1M: ${l.toFixed(3).padStart(8)} us   ratio 1M/1k: ${(l / s).toFixed(2)}x (median), ${best.toFixed(2)}x (best)`,
  );
}

const SMALL = 1_000;
const LARGE = 1_000_000;
let sink = 0;

function decisionLatency(): number {
  const engine = new StateEngine({ now: () => 1 });
  for (let i = 0; i < 1000; i++) {
    engine.addClause({
      id: `clause-${i}`,
      literals: [{ variable: `tool:t${i % 50}`, negated: true }, { variable: `prev_tool:t${(i * 7) % 50}`, negated: true }, { variable: `outcome:${i % 2 === 0 ? "success" : "failure"}`, negated: i % 3 !== 0 }],
      source: "hard",
      failureType: "cycle_detected",
    });
  }
  engine.recordStep(makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "t3", outcome: "failure", errorCategory: "timeout" }));
  engine.recordStep(makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "t4", outcome: "success" }));
  let blocked = 0;
  const check = (i: number): void => {
    if (!engine.checkDecisionAllowed("s", `t${i % 60}`).result.allowed) blocked++;
  };
  round(20_000, check, 0); // warm-up
  const us = median(Array.from({ length: 9 }, (_, r) => round(20_000, check, (r + 1) * 20_000)));
  console.log(`  (decisions blocked during the run: ${blocked})`);
  return us;
}

const cpu = os.cpus()[0]?.model ?? "unknown";
console.log(`machine: ${cpu}, ${os.cpus().length} cores, node ${process.version}, ${os.platform()} ${os.arch()}`);
const smallEngine = new StateEngine({ initial: stateWithProofs(SMALL), now: () => 1 });
const largeEngine = new StateEngine({ initial: stateWithProofs(LARGE), now: () => 1 });
compare("snapshot()", 50_000, 15, (e) => {
  sink += e.snapshot().generation;
});
compare("checkpoint()", 50_000, 15, (e) => {
  sink += e.checkpoint().generation;
});
compare("apply 1-entry delta", 2_000, 15, (e, n, i) => {
  e.apply({ kind: "proof", source: "soft", updates: [{ nodeId: `node-${(i * 7919) % n}`, proof: BigInt(i), disproof: 1n, status: "expanded", source: "soft", updatedAt: i }] });
});
// Reads walk a deeper trie and miss caches on the large map: O(log32 n), shown for context only.
compare("point read (context)", 20_000, 15, (e, n, i) => {
  sink += Number(e.snapshot().proof.get(`node-${(i * 7919) % n}`)?.proof ?? 0n);
});
console.log(`checkDecisionAllowed, 1000 clauses: ${decisionLatency().toFixed(3)} us per call (median)`);
if (sink < 0) console.log("unreachable");
