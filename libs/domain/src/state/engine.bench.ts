/**
 * Benchmark: snapshot and single-entry apply cost at 1,000 and 1,000,000 proof entries
 * (printed as a ratio; persistent structures should keep the large state within 2x of the
 * small one), and decision-check latency with 1,000 and 10,000 clauses (target: at most 5 us
 * a call at 10,000, and nearly flat from 1,000, since the watched-literal index visits only
 * the clauses watching the session's true facts).
 * Then the clause store's live changes, each a ratio against a baseline of the same run, at 2,000
 * and 16,000 clauses (linear keeps every ratio near 1x; the scans and copies they replace grew
 * with the clauses, about 8x between the sizes):
 * - learning clauses one at a time that all watch the same two literals, against as many clauses
 *   each watching its own pair (registering copied the shared slot's list per clause);
 * - a configuration cut of the clause limit to a tenth, in microseconds per evicted clause, 16k
 *   against 2k (each eviction scanned every clause for the least recently used);
 * - learning clauses into a full store, each evicting one, in microseconds per clause, 16k
 *   against 2k;
 * - expiring the oldest 1% of the clauses and ending a session that holds 1% of them, in
 *   microseconds per removed clause, against a baseline of the same run that finds them by
 *   scanning every clause (how both worked before the refresh and session indexes); the indexed
 *   cost should stay nearly flat from 2k to 16k while the scan grows about 8x.
 * Run: node --import tsx libs/domain/src/state/engine.bench.ts
 */

import { Map as IMap } from "immutable";
import os from "node:os";
import type { ProofNumber } from "./proof/proof-number.js";
import { EMPTY_STATE, type ProjectState } from "./project-state.js";
import { StateEngine } from "./engine/engine.js";
import { isViolated } from "./clauses/clause.js";
import { decisionAssignment } from "./clauses/decision-assignment.js";
import { makeStep } from "./steps/step-record.js";
import { compareUtf8 } from "./bytes.js";
import type { Clause } from "./clauses/clause.js";
import { endSessionClauses, expireClauses, removeClause, type ClauseStore } from "./clauses/clause-store.js";

function stateWithProofs(n: number): ProjectState {
  const value: ProofNumber = { proof: 10n, disproof: 10n, status: "expanded", source: "soft", updatedAt: 1 };
  const proofs = IMap<string, ProofNumber>().withMutations((m) => {
    for (let i = 0; i < n; i++) m.set(`node-${i}`, value);
  });
  return { ...EMPTY_STATE, proofs };
}

/**
 * CPU microseconds (user + system, this process) per call of one round of `ops` calls: on a
 * shared machine, wall time mostly measures the other processes.
 */
function round(ops: number, fn: (i: number) => void, offset: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < ops; i++) fn(offset + i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / ops;
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

/**
 * An engine with `n` distinct learned clauses over tool pairs, like those a cycle or failure
 * teaches (`¬tool:a ∨ ¬prev_tool:b ∨ outcome:…`), and a session whose last two steps are known.
 */
function decisionEngine(n: number): StateEngine {
  const engine = new StateEngine({ now: () => 1, config: { maxClauses: n } });
  for (let i = 0; i < n; i++) {
    engine.addClause({
      id: `clause-${i}`,
      literals: [
        { variable: `tool:t${i % 100}`, negated: true },
        { variable: `prev_tool:t${Math.floor(i / 100) % 100}`, negated: true },
        { variable: `outcome:${i % 2 === 0 ? "success" : "failure"}`, negated: i % 3 !== 0 },
      ],
      source: "hard",
      failureType: "cycle_detected",
    });
  }
  engine.recordStep(
    makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "t3", outcome: "failure", errorCategory: "timeout" }),
  );
  engine.recordStep(makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "t4", outcome: "success" }));
  return engine;
}

/** Median microseconds per checkDecisionAllowed over proposed tools t0..t119 (a sixth are unknown tools). */
function decisionLatency(engine: StateEngine): { us: number; blocked: number } {
  let blocked = 0;
  const check = (i: number): void => {
    if (!engine.checkDecisionAllowed("s", `t${i % 120}`).result.allowed) blocked++;
  };
  round(20_000, check, 0); // warm-up
  const us = median(Array.from({ length: 9 }, (_, r) => round(20_000, check, (r + 1) * 20_000)));
  return { us, blocked };
}

/** Median microseconds per checkDecisionAllowed for one tool: the path a blocking or an allowed decision takes alone. */
function pathLatency(engine: StateEngine, tool: string): number {
  const check = (): void => {
    if (!engine.checkDecisionAllowed("s", tool).result.allowed) sink++;
  };
  round(20_000, check, 0); // warm-up
  return median(Array.from({ length: 9 }, (_, r) => round(20_000, check, (r + 1) * 20_000)));
}

/** The read-only part: the same assignments checked against the watch index, no usage recorded. */
function checkLatency(engine: StateEngine): number {
  const recent = engine.state.steps.get("s")?.steps.toArray() ?? [];
  const check = (i: number): void => {
    if (engine.checkAssignment(decisionAssignment(recent, `t${i % 120}`)).conflict) sink++;
  };
  round(20_000, check, 0); // warm-up
  return median(Array.from({ length: 9 }, (_, r) => round(20_000, check, (r + 1) * 20_000)));
}

/** Baseline: the same verdicts by scanning every clause, without the watch index (read-only). */
function scanLatency(engine: StateEngine): number {
  const clauses = [...engine.state.clauses.clauses.values()];
  const recent = engine.state.steps.get("s")?.steps.toArray() ?? [];
  const scan = (i: number): void => {
    const assignment = decisionAssignment(recent, `t${i % 120}`);
    for (const c of clauses) if (isViolated(c, assignment)) sink++;
  };
  round(200, scan, 0); // warm-up
  return median(Array.from({ length: 5 }, (_, r) => round(200, scan, (r + 1) * 200)));
}

/** CPU milliseconds (user + system, this process) of one call of `fn`. */
function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Learns `count` clauses `¬tool:x ∨ ¬prev_tool:y ∨ v<i>` from `from` on (one watch slot), or with `spread` `¬tool:x<i> ∨ …` (a slot each). */
function learn(engine: StateEngine, from: number, count: number, spread: boolean): void {
  for (let i = from; i < from + count; i++) {
    engine.addClause({
      id: `k${i}`,
      literals: [
        { variable: spread ? `tool:x${i}` : "tool:x", negated: true },
        { variable: "prev_tool:y", negated: true },
        { variable: `v${i}`, negated: false },
      ],
      source: "hard",
      failureType: "cycle_detected",
    });
  }
}

/** An engine with a clock that moves on every reading, so clauses differ in last use, capped at `max` clauses. */
function clockedEngine(max: number): StateEngine {
  let clock = 0;
  return new StateEngine({ now: () => ++clock, config: { maxClauses: max } });
}

function clauseStoreCases(): void {
  const sizes = [2_000, 16_000] as const;
  learn(clockedEngine(2_000), 0, 2_000, false); // warm-up
  for (const n of sizes) {
    const shared = cpuMs(() => learn(clockedEngine(n), 0, n, false));
    const spread = cpuMs(() => learn(clockedEngine(n), 0, n, true));
    console.log(
      `learn ${String(n).padStart(6)} clauses live  one shared watch slot: ${shared.toFixed(1).padStart(8)} ms   own slots (baseline): ${spread.toFixed(1).padStart(8)} ms   ratio ${(shared / spread).toFixed(2)}x`,
    );
  }
  const perEviction = sizes.map((n) => {
    const engine = clockedEngine(n);
    learn(engine, 0, n, true);
    const kept = n / 10;
    return (cpuMs(() => engine.updateConfig({ maxClauses: kept })) * 1000) / (n - kept);
  });
  console.log(
    `cut the clause limit to a tenth  2k: ${perEviction[0]?.toFixed(2)} us/eviction   16k: ${perEviction[1]?.toFixed(2)} us/eviction   ratio 16k/2k: ${((perEviction[1] as number) / (perEviction[0] as number)).toFixed(2)}x`,
  );
  const perAdd = sizes.map((n) => {
    const engine = clockedEngine(n);
    learn(engine, 0, n, true);
    return (cpuMs(() => learn(engine, n, 2_000, true)) * 1000) / 2_000;
  });
  console.log(
    `learn into a full store (each add evicts one)  2k: ${perAdd[0]?.toFixed(2)} us/add   16k: ${perAdd[1]?.toFixed(2)} us/add   ratio 16k/2k: ${((perAdd[1] as number) / (perAdd[0] as number)).toFixed(2)}x`,
  );
}

/** Baseline: removes the clauses `pick` selects, found by scanning every clause, in id order. */
function scanRemove(store: ClauseStore, pick: (c: Clause) => boolean): ClauseStore {
  const ids = [...store.clauses.values()]
    .filter(pick)
    .map((c) => c.id)
    .sort(compareUtf8);
  return ids.reduce(removeClause, store);
}

/** A store of `n` clauses learned one per millisecond from 1 on; every hundredth is scoped to session "ending". */
function lifetimeStore(n: number): ClauseStore {
  let now = 0;
  const engine = new StateEngine({ now: () => now, config: { maxClauses: n, clauseTtlMs: 1_000_000 } });
  for (let i = 0; i < n; i++) {
    now = i + 1;
    engine.addClause({
      id: `k${i}`,
      literals: [
        { variable: `tool:x${i}`, negated: true },
        { variable: "prev_tool:y", negated: true },
      ],
      source: "hard",
      failureType: "cycle_detected",
      ...(i % 100 === 0 ? { scope: "session" as const, sessionId: "ending" } : {}),
    });
  }
  return engine.state.clauses;
}

/** Median CPU microseconds per removed clause of `fn` on `store`, which removes `removed` clauses (pure, so repeatable). */
function perRemoved(store: ClauseStore, removed: number, fn: (s: ClauseStore) => ClauseStore): number {
  const once = (): void => {
    if (fn(store).clauses.size < 0) sink++;
  };
  round(20, once, 0); // warm-up
  return median(Array.from({ length: 9 }, (_, r) => round(20, once, (r + 1) * 20))) / removed;
}

function lifetimeCases(): void {
  const ttl = 1_000_000;
  for (const n of [2_000, 16_000] as const) {
    const store = lifetimeStore(n);
    const at = ttl + n / 100 + 1; // the clauses refreshed before n/100 + 1 have expired: the oldest 1%
    const k = n / 100;
    const expire = perRemoved(store, k, (s) => expireClauses(s, { at, ttlMs: ttl }).store);
    const expireScan = perRemoved(store, k, (s) => scanRemove(s, (c) => at - c.refreshedAt > ttl));
    const end = perRemoved(store, k, (s) => endSessionClauses(s, "ending").store);
    const endScan = perRemoved(store, k, (s) => scanRemove(s, (c) => c.scope === "session" && c.sessionId === "ending"));
    console.log(
      `expire 1% of ${String(n).padStart(6)} clauses: ${expire.toFixed(2).padStart(7)} us/removed   scan (baseline): ${expireScan.toFixed(2).padStart(7)} us/removed   indexed/scan ${(expire / expireScan).toFixed(3)}x`,
    );
    console.log(
      `end a session of 1% of ${String(n).padStart(6)}: ${end.toFixed(2).padStart(7)} us/removed   scan (baseline): ${endScan.toFixed(2).padStart(7)} us/removed   indexed/scan ${(end / endScan).toFixed(3)}x`,
    );
  }
}

const cpu = os.cpus()[0]?.model ?? "unknown";
console.log(
  `machine: ${cpu}, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}, node ${process.version}, ${os.platform()} ${os.arch()}; times are CPU us per call`,
);
// Decisions first, while the heap is small: the 1M-entry engines below make every collection slower.
const e1k = decisionEngine(1_000);
const e10k = decisionEngine(10_000);
const d1k = decisionLatency(e1k);
const d10k = decisionLatency(e10k);
const check10k = checkLatency(e10k);
// t5 after t4 is blocked by clause-405 (in both engines); t100 is a tool no clause names.
const blocking10k = pathLatency(e10k, "t5");
const allowed10k = pathLatency(e10k, "t100");
const scan10k = scanLatency(e10k);
console.log(
  `checkDecisionAllowed    1k: ${d1k.us.toFixed(3).padStart(8)} us   10k: ${d10k.us.toFixed(3).padStart(8)} us   ratio 10k/1k: ${(d10k.us / d1k.us).toFixed(2)}x (median; ${e10k.state.clauses.clauses.size} clauses stored, ${d10k.blocked} of ${200_000} calls blocked, each a journaled mutation)`,
);
console.log(
  `  blocking calls alone at 10k (each journals the clause's use): ${blocking10k.toFixed(3)} us; allowed calls alone: ${allowed10k.toFixed(3)} us`,
);
console.log(
  `  of which the read-only check at 10k: ${check10k.toFixed(3)} us; baseline, scanning all 10k clauses: ${scan10k.toFixed(3)} us; check / scan: ${(check10k / scan10k).toFixed(4)}x`,
);
clauseStoreCases();
lifetimeCases();
const smallEngine = new StateEngine({ initial: stateWithProofs(SMALL), now: () => 1 });
const largeEngine = new StateEngine({ initial: stateWithProofs(LARGE), now: () => 1 });
compare("snapshot()", 50_000, 15, (e) => {
  sink += e.snapshot().generation;
});
compare("checkpoint()", 50_000, 15, (e) => {
  sink += e.checkpoint().generation;
});
compare("apply 1-entry delta", 2_000, 15, (e, n, i) => {
  e.apply({
    kind: "proof",
    source: "soft",
    updates: [{ nodeId: `node-${(i * 7919) % n}`, proof: BigInt(i), disproof: 1n, status: "expanded", source: "soft", updatedAt: i }],
  });
});
// Reads walk a deeper trie and miss caches on the large map: O(log32 n), shown for context only.
compare("point read (context)", 20_000, 15, (e, n, i) => {
  sink += Number(e.snapshot().proof.get(`node-${(i * 7919) % n}`)?.proof ?? 0n);
});
if (sink < 0) console.log("unreachable");
