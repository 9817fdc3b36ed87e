/**
 * Benchmark: importing (the work of a restore, an import, and their replay) stays linear in the
 * entries of a document. Two lines, each a ratio against a baseline measured in the same run:
 * 1. clauses that all watch the same two literals, against as many clauses each watching its
 *    own pair (the baseline), at 2,000 and 16,000 clauses. Registering clauses one by one copied
 *    the shared slot's list per clause, so the shared case was quadratic (about 10 s for 20,000
 *    clauses); linear keeps the ratio near 1x at both sizes.
 * 2. a restore of 5,000 and 20,000 similarity pairs, in microseconds per pair; linear keeps the
 *    ratio of the two near 1x.
 * Run: node --import tsx libs/domain/src/state/export/import.bench.ts
 */

import os from "node:os";
import { StateEngine } from "../engine/engine.js";
import type { StateDocument } from "./document.js";
import { fromDocument } from "./import.js";

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Median CPU milliseconds (user + system, this process) of `rounds` calls of `fn`, after one unmeasured call. */
function cpuMs(rounds: number, fn: () => void): number {
  fn();
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  return median(times);
}

/** A document of `n` clauses over `¬tool:x ∨ ¬prev_tool:y ∨ v<i>`, or with `spread` over `¬tool:x<i> ∨ ¬prev_tool:y ∨ v<i>`. */
function clauseDocument(base: StateDocument, n: number, spread: boolean): StateDocument {
  const clauses = Array.from({ length: n }, (_, i) => ({
    id: `k${i}`,
    literals: [
      { variable: spread ? `tool:x${i}` : "tool:x", negated: true },
      { variable: "prev_tool:y", negated: true },
      { variable: `v${i}`, negated: false },
    ],
    source: "hard" as const,
    failureType: "cycle_detected",
    learnedAt: 1,
    refreshedAt: 1,
    lastUsed: 1,
    useCount: 0,
    scope: "project" as const,
    sessionId: "",
    modGeneration: 1,
  }));
  return { ...base, generation: 1, clauses };
}

function similarityEngine(n: number): StateEngine {
  const engine = new StateEngine({ now: () => 1, config: { maxSimilarityPairs: n } });
  for (let i = 0; i < n; i++) engine.recordSimilarity({ a: `a${i}`, b: `b${(i * 7) % n}`, distance: i % 97 });
  return engine;
}

console.log(
  `machine: ${os.cpus()[0]?.model ?? "unknown"}, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}, node ${process.version}; times are CPU`,
);
const clauseEngine = new StateEngine({ config: { maxClauses: 16_000 } });
const base = clauseEngine.exportDocument();
for (const n of [2_000, 16_000]) {
  const shared = clauseDocument(base, n, false);
  const spread = clauseDocument(base, n, true);
  const s = cpuMs(5, () => fromDocument(shared, clauseEngine.config));
  const b = cpuMs(5, () => fromDocument(spread, clauseEngine.config));
  console.log(
    `import ${String(n).padStart(6)} clauses  one shared watch slot: ${s.toFixed(1).padStart(7)} ms   own slots (baseline): ${b.toFixed(1).padStart(7)} ms   ratio ${(s / b).toFixed(2)}x`,
  );
}
const perPair = [5_000, 20_000].map((n) => {
  const engine = similarityEngine(n);
  const cp = engine.checkpoint();
  return (cpuMs(5, () => engine.restore(cp)) * 1000) / n;
});
console.log(
  `restore similarity pairs  5k: ${perPair[0]?.toFixed(2)} us/pair   20k: ${perPair[1]?.toFixed(2)} us/pair   ratio 20k/5k: ${((perPair[1] as number) / (perPair[0] as number)).toFixed(2)}x`,
);
