import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Constraint } from "../constraints/constraint.js";
import { addEdge, EMPTY_DEPENDENCY, reaches, type DependencyIndex } from "../dependency/dependency-index.js";
import { isStateError, type StateErrorCode } from "../errors.js";
import { StateEngine } from "../engine/engine.js";
import { PROOF_INFINITY } from "../proof/proof-number.js";
import { deltaFromJson, deltaToJson } from "./codec.js";
import { deltasConflict } from "./conflict.js";
import { describeDelta } from "./describe.js";
import { compositeDelta, deltaSource, indexesAffected, type Delta, type ProofDelta } from "./delta.js";
import { mergeDeltas, mergeDeltasStrict } from "./merge.js";

const con = (id: string, extra: Partial<Constraint> = {}): Constraint => ({
  id,
  type: "ordering",
  nodes: ["a", "b"],
  expression: "",
  active: true,
  source: "soft",
  createdAt: 1,
  ...extra,
});
const proof = (source: ProofDelta["source"], nodeId: string, entry: Partial<ProofDelta["updates"][number]> = {}): ProofDelta => ({
  kind: "proof",
  source,
  updates: [{ nodeId, proof: 5n, disproof: 5n, status: "expanded", source, updatedAt: 1, ...entry }],
});
const rejects = (e: StateEngine, d: Delta, code: StateErrorCode, field?: string): void => {
  const before = e.state;
  assert.throws(
    () => e.apply(d),
    (err: unknown) => isStateError(err, code) && (field === undefined || err.field === field),
    `expected ${code}${field ? ` at ${field}` : ""}`,
  );
  assert.equal(e.state, before, "rejected delta leaves the state untouched");
};

describe("delta validation", () => {
  it("checks the hard/soft boundary per proof entry", () => {
    const e = new StateEngine();
    rejects(e, proof("soft", "n", { status: "disproven", proof: PROOF_INFINITY }), "HARD_SIGNAL_VIOLATION", "updates[0].status");
    rejects(e, proof("soft", "n", { status: "proven", proof: 0n }), "HARD_SIGNAL_VIOLATION", "updates[0].status");
    rejects(e, proof("soft", "n", { proof: PROOF_INFINITY }), "HARD_SIGNAL_VIOLATION", "updates[0].status");
    rejects(e, proof("soft", "n", { source: "hard" }), "HARD_SIGNAL_VIOLATION", "updates[0].source");
    rejects(
      e,
      { ...proof("hard", "n"), updates: [{ ...proof("hard", "n").updates[0]!, status: "disproven", source: "soft" }] },
      "HARD_SIGNAL_VIOLATION",
      "updates[0].status",
    );
    rejects(e, proof("unknown", "n"), "INVALID_DELTA", "source");
    rejects(
      e,
      { kind: "proof", source: "hard", updates: [proof("hard", "n").updates[0]!, proof("hard", "n").updates[0]!] },
      "INVALID_DELTA",
      "updates[1].nodeId",
    );
    e.validate(proof("hard", "n", { status: "disproven", proof: PROOF_INFINITY }));
    assert.equal(e.generation, 0, "validation alone changes nothing");
    assert.throws(
      () => e.validate(proof("soft", "n", { status: "disproven", proof: PROOF_INFINITY })),
      (err: unknown) => isStateError(err, "HARD_SIGNAL_VIOLATION"),
      "validate reports what apply would",
    );
    e.apply(proof("hard", "n", { status: "disproven", proof: PROOF_INFINITY }));
    assert.equal(e.state.proofs.get("n")?.status, "disproven", "hard disproof accepted");
  });

  it("does not let a soft proof entry overwrite a decided node", () => {
    const e = new StateEngine();
    e.apply(proof("hard", "d", { status: "disproven", proof: PROOF_INFINITY }));
    e.apply(proof("hard", "p", { status: "proven", proof: 0n }));
    rejects(e, proof("soft", "d"), "HARD_SIGNAL_VIOLATION", "updates[0].source");
    rejects(e, proof("soft", "p"), "HARD_SIGNAL_VIOLATION", "updates[0].source");
    rejects(
      e,
      { kind: "proof", source: "hard", updates: [{ ...proof("soft", "d").updates[0]! }] },
      "HARD_SIGNAL_VIOLATION",
      "updates[0].source",
    );
    assert.equal(e.state.proofs.get("d")?.status, "disproven", "disproof kept");
    e.apply(proof("hard", "d"));
    assert.equal(e.state.proofs.get("d")?.status, "expanded", "a hard entry may still revive it");
  });

  it("does not let a soft delta carry hard constraints or history entries", () => {
    const e = new StateEngine();
    rejects(
      e,
      { kind: "constraint", source: "soft", add: [con("c1", { source: "hard" })], remove: [], update: [] },
      "HARD_SIGNAL_VIOLATION",
      "add[0].source",
    );
    e.apply({ kind: "constraint", source: "soft", add: [con("c1")], remove: [], update: [] });
    rejects(
      e,
      { kind: "constraint", source: "soft", add: [], remove: [], update: [con("c1", { source: "safety" })] },
      "HARD_SIGNAL_VIOLATION",
      "update[0].source",
    );
    const entry = { id: "h", nodeId: "n", action: "a", result: "r", source: "hard" as const, timestamp: 1, metadata: {} };
    rejects(e, { kind: "history", source: "soft", entries: [entry] }, "HARD_SIGNAL_VIOLATION", "entries[0].source");
    e.apply({ kind: "history", source: "hard", entries: [entry] });
    e.apply({ kind: "constraint", source: "hard", add: [con("c2", { source: "hard" })], remove: [], update: [] });
    assert.equal(e.snapshot().query().findRecentDecisions(1, "hard")[0]?.id, "h", "a hard delta may carry hard entries");
  });

  it("validates a constraint delta as a whole, as the reference does: removing and updating one id ends with the update", () => {
    const e = new StateEngine();
    e.apply({ kind: "constraint", source: "soft", add: [con("c1"), con("c2")], remove: [], update: [] });
    e.apply({ kind: "constraint", source: "soft", add: [], remove: ["c1", "c2", "c2"], update: [con("c1", { type: "resource" })] });
    assert.deepEqual(
      [e.state.constraints.get("c1")?.type, e.state.constraints.has("c2")],
      ["resource", false],
      "update applied after the remove; a repeated remove is one remove",
    );
  });

  it("checks constraints in remove, update, add order", () => {
    const e = new StateEngine();
    e.apply({ kind: "constraint", source: "soft", add: [con("c1")], remove: [], update: [] });
    rejects(e, { kind: "constraint", source: "soft", add: [con("c1")], remove: [], update: [] }, "CONSTRAINT_EXISTS", "add[0].id");
    rejects(
      e,
      { kind: "constraint", source: "soft", add: [con("c2"), con("c2")], remove: [], update: [] },
      "CONSTRAINT_EXISTS",
      "add[1].id",
    );
    assert.throws(
      () => e.apply({ kind: "constraint", source: "soft", add: [con("c2"), con("c2")], remove: [], update: [] }),
      (err: unknown) => err instanceof Error && err.message.includes("duplicate constraint ID c2"),
      "the reference's text for a duplicate within add",
    );
    rejects(e, { kind: "constraint", source: "soft", add: [], remove: ["nope"], update: [] }, "INDEX_ENTRY_NOT_FOUND", "remove[0]");
    rejects(e, { kind: "constraint", source: "soft", add: [], remove: [], update: [con("nope")] }, "INDEX_ENTRY_NOT_FOUND", "update[0].id");
    rejects(
      e,
      { kind: "constraint", source: "soft", add: [con("c1", { type: "resource" })], remove: ["c1"], update: [] },
      "CONSTRAINT_EXISTS",
      "add[0].id",
    );
    rejects(
      e,
      { kind: "constraint", source: "soft", add: [], remove: [], update: [con("c1"), con("c1")] },
      "INVALID_DELTA",
      "update[1].id",
    );
  });

  it("stores dependency edges and refuses self edges, cycles and missing removals", () => {
    const e = new StateEngine();
    e.apply({
      kind: "dependency",
      source: "hard",
      add: [
        { from: "a", to: "b" },
        { from: "b", to: "c" },
      ],
      remove: [],
    });
    assert.deepEqual(e.snapshot().dependency.dependsOn("a"), ["b"], "edges are real state");
    rejects(e, { kind: "dependency", source: "hard", add: [{ from: "x", to: "x" }], remove: [] }, "INVALID_DELTA", "add[0]");
    rejects(e, { kind: "dependency", source: "hard", add: [{ from: "c", to: "a" }], remove: [] }, "DEPENDENCY_CYCLE", "add[0]");
    rejects(e, { kind: "dependency", source: "hard", add: [], remove: [{ from: "a", to: "c" }] }, "INDEX_ENTRY_NOT_FOUND", "remove[0]");
  });

  it("checks an edge extending a long dependency chain in a few lookups, not by walking the chain, so building, replaying or restoring a chain is not quadratic", () => {
    let chain = EMPTY_DEPENDENCY;
    for (let i = 0; i < 10_000; i++) chain = addEdge(chain, `n${i + 1}`, `n${i}`);
    let lookups = 0;
    const counted = (m: DependencyIndex["forward"]) => ({
      get: (k: string) => {
        lookups++;
        return m.get(k);
      },
    });
    const index = { ...chain, forward: counted(chain.forward), reverse: counted(chain.reverse) } as unknown as DependencyIndex;
    // A new head on the chain (n10001 -> n10000) closes a cycle only when n10000 reaches n10001.
    assert.equal(reaches(index, "n10000", "n10001"), false);
    // A new node below the chain (n0 -> m) closes one only when m reaches n0.
    assert.equal(reaches(index, "m", "n0"), false);
    assert.ok(lookups <= 8, `${lookups} lookups for two edges at the chain's ends`);
    assert.equal(reaches(chain, "n10000", "n0"), true, "the whole chain is still followed when it is the path");
    assert.equal(reaches(chain, "n0", "n10000"), false);
  });

  it("removes an edge named twice in one delta, as a constraint removed twice is: removals are checked against the state before the delta", () => {
    const e = new StateEngine();
    const ab = { from: "a", to: "b" };
    e.apply({ kind: "dependency", source: "hard", add: [ab], remove: [] });
    e.apply({ kind: "dependency", source: "hard", add: [], remove: [ab, ab] });
    assert.deepEqual(e.snapshot().dependency.dependsOn("a"), [], "the edge is gone");
    assert.equal(e.generation, 2, "the delta applied");
  });

  it("checks history entries: ids, metadata sizes, uniqueness", () => {
    const e = new StateEngine();
    const entry = { id: "h1", nodeId: "n", action: "a", result: "r", source: "soft" as const, timestamp: 1, metadata: {} };
    rejects(e, { kind: "history", source: "soft", entries: [{ ...entry, id: "" }] }, "INVALID_DELTA", "entries[0].id");
    rejects(e, { kind: "history", source: "soft", entries: [{ ...entry, metadata: { "": "v" } }] }, "INVALID_DELTA", "entries[0].metadata");
    rejects(
      e,
      { kind: "history", source: "soft", entries: [{ ...entry, metadata: { ["é".repeat(129)]: "v" } }] },
      "INVALID_DELTA",
      "entries[0].metadata",
    );
    rejects(
      e,
      { kind: "history", source: "soft", entries: [{ ...entry, metadata: { k: "x".repeat(4097) } }] },
      "INVALID_DELTA",
      "entries[0].metadata.k",
    );
    rejects(e, { kind: "history", source: "soft", entries: [entry, entry] }, "INVALID_DELTA", "entries[1].id");
  });

  it("rejects history and apply metadata that is a list or a string rather than an object", () => {
    const e = new StateEngine();
    const entry = { id: "h1", nodeId: "n", action: "a", result: "r", source: "soft" as const, timestamp: 1, metadata: ["v"] as never };
    rejects(e, { kind: "history", source: "soft", entries: [entry] }, "INVALID_DELTA", "entries[0].metadata");
    const before = e.state;
    for (const metadata of ["ab", ["v"]]) {
      assert.throws(
        () => e.apply({ kind: "history", source: "soft", entries: [] }, { metadata: metadata as never }),
        (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === "metadata",
        `apply metadata ${JSON.stringify(metadata)}`,
      );
    }
    assert.equal(e.state, before, "nothing applied");
  });

  it("rejects zero streaming increments, which would count unseen items", () => {
    const e = new StateEngine();
    rejects(
      e,
      { kind: "streaming", source: "soft", increments: [{ item: "x", count: 0 }], observed: [] },
      "INVALID_DELTA",
      "increments[0].count",
    );
  });

  it("validates analytics records in the reference's order and requires a hard source", () => {
    const e = new StateEngine();
    const rec = {
      id: "",
      queryType: "cycles",
      queryTime: 5,
      resultCount: 1,
      results: [],
      cycles: [["a", "b"]],
      path: [],
      executionMs: 1,
      params: {},
    };
    rejects(e, { kind: "analytics", source: "hard", record: { ...rec, queryType: "" } }, "INVALID_DELTA", "record.queryType");
    rejects(e, { kind: "analytics", source: "hard", record: { ...rec, queryTime: 0 } }, "INVALID_DELTA", "record.queryTime");
    rejects(e, { kind: "analytics", source: "hard", record: { ...rec, cycles: [] } }, "INVALID_DELTA", "record.cycles");
    rejects(e, { kind: "analytics", source: "soft", record: rec }, "HARD_SIGNAL_VIOLATION", "source");
    e.apply({ kind: "analytics", source: "hard", record: { ...rec, results: Array.from({ length: 60 }, (_, i) => `r${i}`) } });
    const s = e.snapshot();
    assert.equal(s.analytics.last("cycles")?.results.length, 50, "results truncated to 50");
    assert.equal(s.analytics.last("cycles")?.id, "analytics-cycles-5-1", "derived id is deterministic");
    assert.equal(s.proof.get("analytics:cycles:done")?.source, "hard", "marker keeps the delta's source");
    assert.equal(s.proof.get("analytics:cycles:found")?.status, "proven", "found marker set");
    assert.deepEqual(
      [s.proof.get("analytics:cycles:done")?.proof, s.proof.get("analytics:cycles:done")?.disproof],
      [1n, 0n],
      "the reference's marker numbers",
    );
  });
});

describe("analytics record shape", () => {
  it("rejects records with missing or malformed lists and params as INVALID_DELTA naming the field", () => {
    const e = new StateEngine();
    const rec = {
      id: "",
      queryType: "hotspots",
      queryTime: 5,
      resultCount: 1,
      results: ["a"],
      cycles: [],
      path: [],
      executionMs: 1,
      params: {},
    };
    const without = (k: string): unknown => Object.fromEntries(Object.entries(rec).filter(([key]) => key !== k));
    for (const k of ["results", "cycles", "path", "params"])
      rejects(e, { kind: "analytics", source: "hard", record: without(k) as never }, "INVALID_DELTA", `record.${k}`);
    rejects(e, { kind: "analytics", source: "hard", record: { ...rec, results: [1] as never } }, "INVALID_DELTA", "record.results[0]");
    rejects(
      e,
      { kind: "analytics", source: "hard", record: { ...rec, cycles: [["a", 2]] as never } },
      "INVALID_DELTA",
      "record.cycles[0][1]",
    );
    rejects(
      e,
      { kind: "analytics", source: "hard", record: { ...rec, params: { limit: 5 } as never } },
      "INVALID_DELTA",
      "record.params.limit",
    );
    rejects(e, { kind: "analytics", source: "hard", record: { ...rec, id: 7 as never } }, "INVALID_DELTA", "record.id");
    assert.equal(e.generation, 0, "nothing applied");
  });
});

describe("analytics ids", () => {
  it("are distinct for equal runs derived in one composite", () => {
    const e = new StateEngine();
    const rec = {
      id: "",
      queryType: "hotspots",
      queryTime: 5,
      resultCount: 0,
      results: [],
      cycles: [],
      path: [],
      executionMs: 1,
      params: {},
    };
    e.apply(compositeDelta({ kind: "analytics", source: "hard", record: rec }, { kind: "analytics", source: "hard", record: rec }));
    const ids = e
      .snapshot()
      .analytics.all()
      .map((r) => r.id);
    assert.equal(new Set(ids).size, 2, `distinct ids: ${ids.join(", ")}`);
    assert.equal(ids[0], "analytics-hotspots-5-1", "the first keeps the plain derived id");
  });
});

describe("composite deltas", () => {
  it("validate each child against the state its earlier siblings produced", () => {
    const e = new StateEngine();
    e.apply(
      compositeDelta(
        { kind: "constraint", source: "soft", add: [con("c1")], remove: [], update: [] },
        { kind: "constraint", source: "soft", add: [], remove: [], update: [con("c1", { active: false })] },
      ),
    );
    assert.equal(e.state.constraints.get("c1")?.active, false, "update saw the sibling's add");
    assert.equal(e.generation, 1, "a composite bumps the generation once");
  });

  it("are atomic: a failing child leaves no trace of earlier children", () => {
    const e = new StateEngine();
    rejects(
      e,
      compositeDelta(proof("hard", "n1"), { kind: "constraint", source: "soft", add: [], remove: ["missing"], update: [] }),
      "INDEX_ENTRY_NOT_FOUND",
      "deltas[1].remove[0]",
    );
    assert.equal(e.state.proofs.has("n1"), false, "first child not applied");
  });

  it("are only as strong as their weakest child", () => {
    assert.equal(deltaSource(compositeDelta(proof("hard", "a"), proof("soft", "b"))), "soft", "mixed is soft");
    assert.equal(deltaSource(compositeDelta()), "soft", "empty is soft");
    assert.deepEqual(
      indexesAffected(compositeDelta(proof("hard", "a"), { kind: "analytics", source: "hard", record: {} as never }, proof("soft", "b"))),
      ["proof", "analytics"],
      "de-duplicated first-seen",
    );
  });
});

describe("merge and conflicts", () => {
  it("never upgrades a soft disproof by merging it with a hard delta", () => {
    const soft = proof("soft", "x", { status: "disproven", proof: PROOF_INFINITY });
    const merged = mergeDeltas(soft, proof("hard", "y"));
    assert.equal(deltaSource(merged), "soft", "merged source is the weaker");
    const e = new StateEngine();
    rejects(e, merged, "HARD_SIGNAL_VIOLATION");
  });

  it("merges proof entries by newest updatedAt, ties keeping the receiver", () => {
    const a = proof("hard", "n", { proof: 1n, updatedAt: 5 });
    const b = proof("hard", "n", { proof: 2n, updatedAt: 5 });
    const c = proof("hard", "n", { proof: 3n, updatedAt: 6 });
    assert.equal((mergeDeltas(a, b) as ProofDelta).updates[0]?.proof, 1n, "tie keeps receiver");
    assert.equal((mergeDeltas(a, c) as ProofDelta).updates[0]?.proof, 3n, "newer wins");
  });

  it("merges similarity pairs canonically and different kinds into a composite", () => {
    const m = mergeDeltas(
      { kind: "similarity", source: "soft", updates: [{ a: "a", b: "b", distance: 1 }] },
      { kind: "similarity", source: "soft", updates: [{ a: "b", b: "a", distance: 2 }] },
    );
    assert.deepEqual(m.kind === "similarity" ? m.updates : [], [{ a: "b", b: "a", distance: 2 }], "reversed pair is the same pair");
    assert.equal(mergeDeltas(proof("hard", "a"), m).kind, "composite", "different kinds");
  });

  it("detects conflicts symmetrically, composites included", () => {
    const add = { kind: "constraint" as const, source: "soft" as const, add: [con("c")], remove: [], update: [] };
    const remove = { kind: "constraint" as const, source: "soft" as const, add: [], remove: ["c"], update: [] };
    assert.equal(deltasConflict(add, remove), true, "add vs remove");
    assert.equal(deltasConflict(remove, add), true, "remove vs add");
    assert.equal(deltasConflict(compositeDelta(add), compositeDelta(remove)), true, "composite vs composite");
    assert.equal(deltasConflict(proof("hard", "a"), proof("hard", "b")), false, "disjoint proofs");
    assert.throws(
      () => mergeDeltasStrict(add, remove),
      (err: unknown) => isStateError(err, "DELTA_CONFLICT"),
      "strict merge refuses conflicts",
    );
    assert.equal(mergeDeltasStrict(proof("hard", "a"), proof("hard", "b")).kind, "proof", "strict merge of disjoint deltas");
    assert.equal(
      deltasConflict(
        { kind: "streaming", source: "soft", increments: [], observed: [] },
        { kind: "streaming", source: "soft", increments: [], observed: [] },
      ),
      false,
      "streaming commutes",
    );
  });

  it("does not take an analytics run for a conflict with the markers of a query type it prefixes", () => {
    const run = (queryType: string) =>
      ({
        kind: "analytics",
        source: "hard",
        record: { id: "", queryType, queryTime: 5, resultCount: 1, executionMs: 1, results: ["r"], cycles: [], path: [], params: {} },
      }) as Delta;
    assert.equal(deltasConflict(run("x"), proof("hard", "analytics:x:y:done")), false, "another type's marker");
    assert.equal(deltasConflict(proof("hard", "analytics:x:done"), run("x")), true, "its own done marker");
    assert.equal(deltasConflict(run("x"), proof("hard", "analytics:x:found")), true, "its own found marker");
  });
});

describe("dependency conflicts", () => {
  it("reports two deltas adding opposite edges, which succeed in one order only", () => {
    const ab = { kind: "dependency" as const, source: "hard" as const, add: [{ from: "a", to: "b" }], remove: [] };
    const ba = { kind: "dependency" as const, source: "hard" as const, add: [{ from: "b", to: "a" }], remove: [] };
    assert.equal(deltasConflict(ab, ba), true, "opposite edges");
    assert.equal(deltasConflict(ba, ab), true, "symmetric");
    assert.equal(deltasConflict(ab, ab), false, "the same edge twice is idempotent");
    assert.throws(
      () => mergeDeltasStrict(ab, ba),
      (err: unknown) => isStateError(err, "DELTA_CONFLICT"),
      "strict merge refuses them",
    );
  });
});

describe("delta JSON", () => {
  it("round-trips with uint64 values as decimal strings", () => {
    const d = compositeDelta(proof("hard", "n", { proof: PROOF_INFINITY }), {
      kind: "similarity",
      source: "soft",
      updates: [{ a: "a", b: "b", distance: 0.5 }],
    });
    const json = JSON.parse(JSON.stringify(deltaToJson(d)));
    assert.equal(json.deltas[0].updates[0].proof, "18446744073709551615", "string encoding");
    assert.deepEqual(deltaFromJson(json), d, "decoded equals original");
    assert.throws(
      () => deltaFromJson({ ...json, deltas: [{ ...json.deltas[0], updates: [{ ...json.deltas[0].updates[0], proof: "-1" }] }] }),
      (err: unknown) => isStateError(err, "INVALID_ARGUMENT"),
      "bad number rejected",
    );
  });
});

describe("delta summaries", () => {
  it("describes each kind in one line", () => {
    assert.equal(describeDelta(proof("hard", "a")), "Updated proof numbers for 1 symbol(s)", "proof");
    assert.equal(
      describeDelta({ kind: "constraint", source: "soft", add: [con("a")], remove: ["b", "c"], update: [] }),
      "Constraints: +1 -2 ~0",
      "constraint",
    );
    assert.equal(describeDelta({ kind: "history", source: "soft", entries: [] }), "Added 0 history entries", "history counts entries");
    assert.equal(describeDelta(compositeDelta(proof("hard", "a"))), "Composite delta with 1 sub-delta(s)", "composite");
  });
});

describe("malformed deltas", () => {
  it("fail with INVALID_DELTA naming the field, never with a TypeError", () => {
    const e = new StateEngine();
    const cases: [unknown, string][] = [
      [{ kind: "proof", source: "hard" }, "updates"],
      [{ kind: "constraint", source: "soft", add: [], remove: "c1", update: [] }, "remove"],
      [{ kind: "composite", deltas: [{ kind: "history", source: "soft", entries: [null] }] }, "deltas[0].entries[0]"],
      [{ kind: "teleport", source: "hard" }, "kind"],
    ];
    for (const [d, field] of cases) {
      assert.throws(
        () => e.apply(d as Delta),
        (err: unknown) => isStateError(err, "INVALID_DELTA") && err.field === field,
        `rejects ${field}`,
      );
    }
    assert.equal(e.generation, 0, "nothing applied");
  });
});
