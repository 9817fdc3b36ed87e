import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compareUtf8 } from "../bytes.js";
import type { Delta } from "../delta/delta.js";
import { isStateError } from "../errors.js";
import { STATE_EVENT_TYPES, type StateEvent } from "../events/event.js";
import { PROOF_INFINITY } from "../proof/proof-number.js";
import type { ProofStatus, SignalSource } from "../signals.js";
import { makeStep } from "../steps/step-record.js";
import { StateEngine } from "./engine.js";

// A deliberately simple model: plain maps and the rules written out once more, naively.
interface Model {
  generation: number;
  proofs: Map<string, { proof: bigint; status: ProofStatus; source: SignalSource }>;
  constraints: Set<string>;
  similarity: Map<string, number>;
  edges: Set<string>;
  history: string[];
}

const CONFIG = { maxSimilarityPairs: 4, maxHistoryEntries: 5, clauseTtlMs: 100, maxClauses: 3, maxDeltaRecords: 6 };
const NODES = ["a", "b", "c", "d", "é", "𝔸"];
const hard = (s: SignalSource): boolean => s === "hard" || s === "safety";

type Op =
  | { op: "proof"; source: SignalSource; node: string; entrySource: SignalSource; status: ProofStatus; proof: bigint }
  | { op: "constraint"; action: "add" | "remove" | "update"; id: string }
  | { op: "similarity"; a: string; b: string; d: number }
  | { op: "edge"; action: "add" | "remove"; from: string; to: string }
  | { op: "history"; id: string }
  | { op: "increment"; node: string; source: SignalSource }
  | { op: "composite"; ops: Op[] }
  | { op: "step"; session: string };

const source = fc.constantFrom<SignalSource>("hard", "soft", "safety", "unknown");
const node = fc.constantFrom(...NODES);
const leaf: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("proof" as const),
    source,
    node,
    entrySource: source,
    status: fc.constantFrom<ProofStatus>("unknown", "expanded", "proven", "disproven"),
    proof: fc.constantFrom(0n, 5n, PROOF_INFINITY - 1n, PROOF_INFINITY),
  }),
  fc.record({
    op: fc.constant("constraint" as const),
    action: fc.constantFrom("add" as const, "remove" as const, "update" as const),
    id: fc.constantFrom("c1", "c2", "c3"),
  }),
  fc.record({
    op: fc.constant("similarity" as const),
    a: node,
    b: node,
    d: fc.constantFrom(0, 0.5, 2, -1, Number.NaN, Number.POSITIVE_INFINITY),
  }),
  fc.record({ op: fc.constant("edge" as const), action: fc.constantFrom("add" as const, "remove" as const), from: node, to: node }),
  fc.record({ op: fc.constant("history" as const), id: fc.constantFrom("h1", "h2", "h3", "h4", "h5", "h6", "h7") }),
  fc.record({ op: fc.constant("increment" as const), node, source }),
  fc.record({ op: fc.constant("step" as const), session: fc.constantFrom("s1", "s2") }),
);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: leaf },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("composite" as const), ops: fc.array(leaf, { maxLength: 3 }) }) },
);

// Every other kind of mutation, for the replay, snapshot and export properties.
type Extra =
  | { op: "clause"; id: string; vars: string[]; negs: boolean[]; session: string }
  | { op: "decide"; session: string; tool: string }
  | { op: "gc"; jump: number }
  | { op: "end"; session: string }
  | { op: "propagate"; node: string }
  | { op: "checkpoint" }
  | { op: "restore" }
  | { op: "record_similarity"; a: string; b: string; d: number }
  | { op: "streaming"; item: string; count: number }
  | { op: "analytics"; type: string; count: number }
  | { op: "cycle"; session: string; key: string }
  | { op: "cycle_reset"; session: string; max: number }
  | { op: "import" }
  | { op: "config"; maxClauses: number; maxHistoryEntries: number; maxSimilarityPairs: number; maxStepsPerSession: number; ring: number };

const extraArb: fc.Arbitrary<Extra> = fc.oneof(
  fc.record({
    op: fc.constant("clause" as const),
    id: fc.constantFrom("k1", "k2", "k3", "k4"),
    vars: fc.array(fc.constantFrom("tool:Grep", "prev_tool:Grep", "outcome:success", "tool:x"), { minLength: 1, maxLength: 3 }),
    negs: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    session: fc.constantFrom("", "s1"),
  }),
  fc.record({ op: fc.constant("decide" as const), session: fc.constantFrom("s1", "s2"), tool: fc.constantFrom("Grep", "x") }),
  fc.record({ op: fc.constant("gc" as const), jump: fc.constantFrom(0, 50, 150) }),
  fc.record({ op: fc.constant("end" as const), session: fc.constantFrom("s1", "s2") }),
  fc.record({ op: fc.constant("propagate" as const), node }),
  fc.record({ op: fc.constant("checkpoint" as const) }),
  fc.record({ op: fc.constant("restore" as const) }),
  fc.record({ op: fc.constant("record_similarity" as const), a: node, b: node, d: fc.constantFrom(0, 1, 3.5) }),
  fc.record({ op: fc.constant("streaming" as const), item: node, count: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ op: fc.constant("analytics" as const), type: fc.constantFrom("hotspots", "path"), count: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ op: fc.constant("cycle" as const), session: fc.constantFrom("s1", "s2"), key: fc.constantFrom("x", "y", "z") }),
  fc.record({ op: fc.constant("cycle_reset" as const), session: fc.constantFrom("s1", "s2"), max: fc.constantFrom(0, 2, 5) }),
  fc.record({ op: fc.constant("import" as const) }),
  fc.record({
    op: fc.constant("config" as const),
    maxClauses: fc.integer({ min: 1, max: 4 }),
    maxHistoryEntries: fc.integer({ min: 1, max: 6 }),
    maxSimilarityPairs: fc.integer({ min: 1, max: 5 }),
    maxStepsPerSession: fc.integer({ min: 1, max: 4 }),
    ring: fc.integer({ min: 1, max: 8 }),
  }),
);
const anyOpArb: fc.Arbitrary<Op | Extra> = fc.oneof(opArb, extraArb);

function toDelta(o: Op): Delta | undefined {
  switch (o.op) {
    case "proof":
      return {
        kind: "proof",
        source: o.source,
        updates: [{ nodeId: o.node, proof: o.proof, disproof: 1n, status: o.status, source: o.entrySource, updatedAt: 1 }],
      };
    case "constraint": {
      const c = { id: o.id, type: "ordering" as const, nodes: ["a"], expression: "", active: true, source: "soft" as const, createdAt: 1 };
      return {
        kind: "constraint",
        source: "soft",
        add: o.action === "add" ? [c] : [],
        remove: o.action === "remove" ? [o.id] : [],
        update: o.action === "update" ? [c] : [],
      };
    }
    case "similarity":
      return { kind: "similarity", source: "soft", updates: [{ a: o.a, b: o.b, distance: o.d }] };
    case "edge":
      return {
        kind: "dependency",
        source: "hard",
        add: o.action === "add" ? [{ from: o.from, to: o.to }] : [],
        remove: o.action === "remove" ? [{ from: o.from, to: o.to }] : [],
      };
    case "history":
      return {
        kind: "history",
        source: "soft",
        entries: [{ id: o.id, nodeId: "a", action: "x", result: "ok", source: "soft", timestamp: 1, metadata: {} }],
      };
    case "composite":
      return { kind: "composite", deltas: o.ops.map(toDelta).filter((d): d is Delta => d !== undefined) };
    default:
      return undefined;
  }
}

function reaches(edges: Set<string>, from: string, to: string): boolean {
  const seen = new Set([from]);
  const todo = [from];
  while (todo.length > 0) {
    const cur = todo.pop() as string;
    if (cur === to) return true;
    for (const e of edges) {
      const [f, t] = JSON.parse(e) as [string, string];
      if (f === cur && !seen.has(t)) {
        seen.add(t);
        todo.push(t);
      }
    }
  }
  return false;
}

/** Applies `o` to a copy of the model; returns undefined when the model rejects it. */
function modelApply(m: Model, o: Op): Model | undefined {
  const n: Model = {
    ...m,
    proofs: new Map(m.proofs),
    constraints: new Set(m.constraints),
    similarity: new Map(m.similarity),
    edges: new Set(m.edges),
    history: [...m.history],
  };
  const ok = modelStep(n, o);
  if (!ok) return undefined;
  n.generation++;
  return n;
}

function modelStep(n: Model, o: Op): boolean {
  switch (o.op) {
    case "proof": {
      if (o.source === "unknown" || o.entrySource === "unknown") return false;
      if (hard(o.entrySource) && !hard(o.source)) return false;
      const hardAction = o.status === "proven" || o.status === "disproven" || o.proof === PROOF_INFINITY;
      if (hardAction && !hard(o.entrySource)) return false;
      const cur = n.proofs.get(o.node);
      if (
        cur !== undefined &&
        (cur.status === "proven" || cur.status === "disproven" || cur.proof === PROOF_INFINITY) &&
        !hard(o.entrySource)
      )
        return false;
      n.proofs.set(o.node, { proof: o.proof, status: o.status, source: o.entrySource });
      return true;
    }
    case "constraint":
      if (o.action === "add") {
        if (n.constraints.has(o.id)) return false;
        n.constraints.add(o.id);
      } else if (!n.constraints.has(o.id)) return false;
      else if (o.action === "remove") n.constraints.delete(o.id);
      return true;
    case "similarity": {
      if (o.a === o.b || !Number.isFinite(o.d) || o.d < 0) return false;
      const key = JSON.stringify([o.a, o.b].sort(compareUtf8));
      if (!n.similarity.has(key) && n.similarity.size >= CONFIG.maxSimilarityPairs) return false;
      n.similarity.set(key, o.d);
      return true;
    }
    case "edge": {
      const key = JSON.stringify([o.from, o.to]);
      if (o.action === "remove") return n.edges.delete(key);
      if (o.from === o.to || reaches(n.edges, o.to, o.from)) return false;
      n.edges.add(key);
      return true;
    }
    case "history":
      if (n.history.includes(o.id)) return false;
      n.history.push(o.id);
      if (n.history.length > CONFIG.maxHistoryEntries) n.history.shift();
      return true;
    case "increment": {
      if (o.source === "unknown") return false;
      const cur = n.proofs.get(o.node) ?? { proof: 10n, status: "unknown" as ProofStatus, source: "unknown" as SignalSource };
      const ceiling = hard(o.source) ? PROOF_INFINITY : PROOF_INFINITY - 1n;
      const proof = cur.proof >= ceiling ? cur.proof : cur.proof + 1n > ceiling ? ceiling : cur.proof + 1n;
      n.proofs.set(o.node, { proof, status: cur.status === "unknown" ? "expanded" : cur.status, source: o.source });
      return true;
    }
    case "composite":
      return o.ops.filter((c) => toDelta(c) !== undefined).every((c) => modelStep(n, c));
    case "step":
      return true;
  }
}

let clock = 0;
function engineApply(e: StateEngine, o: Op): StateEvent | undefined {
  clock += 7;
  if (o.op === "increment") return e.updateProof({ nodeId: o.node, type: "increment", delta: 1n, reason: "", source: o.source }).event;
  if (o.op === "step")
    return e.recordStep(makeStep({ sessionId: o.session, actor: "main_agent", decision: "execute_tool", tool: "Grep", outcome: "success" }))
      .event;
  return e.apply(toDelta(o) as Delta).event;
}

let saved: ReturnType<StateEngine["checkpoint"]> | undefined;
function engineApplyAny(e: StateEngine, o: Op | Extra): StateEvent | undefined {
  clock += 7;
  switch (o.op) {
    case "clause": {
      const literals = o.vars.map((variable, i) => ({ variable, negated: o.negs[i] ?? true }));
      return e.addClause({
        id: o.id,
        literals,
        source: "hard",
        failureType: "cycle_detected",
        scope: o.session === "" ? "project" : "session",
        sessionId: o.session,
      }).event;
    }
    case "decide":
      return e.checkDecisionAllowed(o.session, o.tool).event;
    case "gc":
      clock += o.jump;
      return e.garbageCollectClauses().event;
    case "end":
      return e.endSession(o.session).event;
    case "propagate":
      return e.propagateDisproof(o.node).event;
    case "checkpoint":
      saved = e.checkpoint();
      return undefined;
    case "restore":
      return saved === undefined ? undefined : e.restore(saved).event;
    case "record_similarity":
      return e.recordSimilarity({ a: o.a, b: o.b, distance: o.d }).event;
    case "streaming":
      return e.apply({ kind: "streaming", source: "soft", increments: [{ item: o.item, count: o.count }], observed: [o.item] }).event;
    case "cycle":
      return e.checkCycle(o.session, o.key).event;
    case "cycle_reset":
      return e.resetCycleDetector(o.session, { maxHistory: o.max }).event;
    case "import":
      return e.importDocument(JSON.parse(JSON.stringify(e.exportDocument()))).event;
    case "config": {
      const { maxClauses, maxHistoryEntries, maxSimilarityPairs, maxStepsPerSession, ring } = o;
      return e.updateConfig({ maxClauses, maxHistoryEntries, maxSimilarityPairs, maxStepsPerSession, snapshotRingSize: ring }).event;
    }
    case "analytics":
      return e.apply({
        kind: "analytics",
        source: "hard",
        record: {
          id: "",
          queryType: o.type,
          queryTime: clock + 1,
          resultCount: o.count,
          results: [],
          cycles: [],
          path: o.count > 0 ? ["a", "b"] : [],
          executionMs: 1,
          params: {},
        },
      }).event;
    default:
      return engineApply(e, o);
  }
}

/** Runs every operation, ignoring rejections; returns the events emitted. */
function runAll(e: StateEngine, ops: (Op | Extra)[], each?: (i: number) => void): StateEvent[] {
  saved = undefined;
  const events: StateEvent[] = [];
  ops.forEach((o, i) => {
    each?.(i);
    try {
      const ev = engineApplyAny(e, o);
      if (ev !== undefined) events.push(JSON.parse(JSON.stringify(ev)) as StateEvent);
    } catch (err) {
      assert.ok(isStateError(err), `op ${i}: rejection must be a StateError, got ${String(err)}`);
    }
  });
  return events;
}

function assertAgrees(e: StateEngine, m: Model, ctx: string): void {
  const s = e.snapshot();
  assert.equal(s.generation, m.generation, `${ctx}: generation`);
  const proofs = new Map(s.proof.all().map((p) => [p.nodeId, { proof: p.proof, status: p.status, source: p.source }]));
  assert.deepEqual(proofs, m.proofs, `${ctx}: proofs`);
  assert.deepEqual(new Set(s.constraints.all().map((c) => c.id)), m.constraints, `${ctx}: constraints`);
  assert.deepEqual(
    new Map(s.similarity.allPairs().pairs.map((p) => [JSON.stringify([p.from, p.to]), p.distance])),
    m.similarity,
    `${ctx}: similarity`,
  );
  assert.deepEqual(new Set(s.dependency.allEdges().map((x) => JSON.stringify([x.from, x.to]))), m.edges, `${ctx}: edges`);
  assert.deepEqual(
    s.history.recent(100).map((h) => h.id),
    m.history,
    `${ctx}: history`,
  );
}

const empty = (): Model => ({
  generation: 0,
  proofs: new Map(),
  constraints: new Set(),
  similarity: new Map(),
  edges: new Set(),
  history: [],
});
const newEngine = (): StateEngine => new StateEngine({ config: CONFIG, now: () => clock });
const doc = (e: StateEngine): string => JSON.stringify(e.exportDocument());
const RUNS = { numRuns: 60 };

describe("engine against a simple model", () => {
  it("agrees with the model on every accepted and rejected operation", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), (ops) => {
        const e = newEngine();
        let m = empty();
        ops.forEach((o, i) => {
          const expected = modelApply(m, o);
          let threw: unknown;
          try {
            engineApply(e, o);
          } catch (err) {
            threw = err;
          }
          assert.equal(
            threw === undefined,
            expected !== undefined,
            `op ${i} ${JSON.stringify(o, (_, v) => (typeof v === "bigint" ? `${v}n` : v))}: engine ${threw === undefined ? "accepted" : `rejected (${String(threw)})`}`,
          );
          if (threw !== undefined) assert.ok(isStateError(threw), `op ${i}: rejection must be a StateError, got ${String(threw)}`);
          if (expected !== undefined) m = expected;
          assertAgrees(e, m, `after op ${i}`);
        });
      }),
      RUNS,
    );
  });

  it("a rejected operation changes neither state nor generation", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 25 }), (ops) => {
        const e = newEngine();
        for (const o of ops) {
          const before = e.state;
          try {
            engineApply(e, o);
          } catch {
            assert.equal(e.state, before, "a rejected operation must leave the very same state value in place");
            assert.equal(e.snapshot().state, before, "the latest snapshot must still be the pre-operation state");
          }
        }
      }),
      RUNS,
    );
  });

  it("replaying the emitted events from empty state reproduces the state", () => {
    fc.assert(
      fc.property(fc.array(anyOpArb, { maxLength: 30 }), (ops) => {
        const e = newEngine();
        const events = runAll(e, ops);
        assert.equal(events.length, e.generation, "one event per generation");
        const replayed = StateEngine.fromEvents(events, { config: CONFIG });
        assert.equal(doc(replayed), doc(e), "replayed state must equal the live state");
      }),
      RUNS,
    );
  });

  it("a snapshot taken at any point never changes afterwards", () => {
    fc.assert(
      fc.property(fc.array(anyOpArb, { maxLength: 30 }), fc.nat(30), (ops, at) => {
        const e = newEngine();
        let taken: { snap: ReturnType<StateEngine["snapshot"]>; image: string } | undefined;
        runAll(e, ops, (i) => {
          if (i === Math.min(at, ops.length - 1)) taken = { snap: e.snapshot(), image: doc(e) };
        });
        if (taken !== undefined) {
          const later = JSON.stringify(new StateEngine({ config: CONFIG, initial: taken.snap.state }).exportDocument());
          assert.equal(later, taken.image, "snapshot content changed after later operations");
        }
      }),
      RUNS,
    );
  });

  it("export then import then export is identical", () => {
    fc.assert(
      fc.property(fc.array(anyOpArb, { maxLength: 30 }), (ops) => {
        const e = newEngine();
        runAll(e, ops);
        const first = doc(e);
        const again = StateEngine.fromDocument(JSON.parse(first), { config: CONFIG });
        assert.equal(doc(again), first, "export/import/export must be identical");
        assert.equal(again.generation, e.generation, "import keeps the generation");
      }),
      RUNS,
    );
  });

  it("rejected operations of every kind change nothing", () => {
    fc.assert(
      fc.property(fc.array(anyOpArb, { maxLength: 30 }), (ops) => {
        const e = newEngine();
        saved = undefined;
        ops.forEach((o, i) => {
          const before = e.state;
          try {
            engineApplyAny(e, o);
          } catch {
            assert.equal(e.state, before, `op ${i}: rejected operation must keep the same state value`);
          }
        });
      }),
      RUNS,
    );
  });
});

describe("operation generator coverage", () => {
  it("exercises every event type across a sample of runs", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(anyOpArb, { minLength: 20, maxLength: 40 }), (ops) => {
        for (const ev of runAll(newEngine(), ops)) seen.add(ev.type);
      }),
      { numRuns: 40, seed: 42 },
    );
    assert.deepEqual([...seen].sort(), [...STATE_EVENT_TYPES].sort(), "every event type occurs in the generated histories");
  });
});
