import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isStateError } from "../errors.js";
import { StateEngine } from "../engine/engine.js";
import { PROOF_INFINITY } from "../proof/proof-number.js";
import { makeStep } from "../steps/step-record.js";
import { STATE_DOCUMENT_FORMAT, type StateDocument } from "./document.js";
import { computeSummary, referenceExport, rfc3339 } from "./summary.js";

function busy(): StateEngine {
  let t = 1_700_000_000_000;
  const e = new StateEngine({ now: () => (t += 1000) });
  e.apply({
    kind: "proof",
    source: "hard",
    updates: [
      { nodeId: "n", proof: PROOF_INFINITY, disproof: 0n, status: "disproven", source: "hard", updatedAt: 5 },
      { nodeId: "p", proof: 0n, disproof: 3n, status: "proven", source: "safety", updatedAt: 6 },
    ],
  });
  e.apply({
    kind: "constraint",
    source: "soft",
    add: [{ id: "c", type: "implication", nodes: ["n", "p"], expression: "n->p", active: true, source: "soft", createdAt: 2 }],
    remove: [],
    update: [],
  });
  e.apply({ kind: "dependency", source: "hard", add: [{ from: "p", to: "n" }], remove: [] });
  e.apply({
    kind: "history",
    source: "soft",
    entries: [{ id: "h", nodeId: "n", action: "a", result: "r", source: "soft", timestamp: 3, metadata: { k: "v" } }],
  });
  e.apply({ kind: "streaming", source: "soft", increments: [{ item: "n", count: 4 }], observed: ["q"] });
  e.apply({
    kind: "analytics",
    source: "hard",
    record: {
      id: "",
      queryType: "hotspots",
      queryTime: 9,
      resultCount: 1,
      results: ["n"],
      cycles: [],
      path: [],
      executionMs: 2,
      params: { limit: "5" },
    },
  });
  e.recordSimilarity({ a: "n", b: "p", distance: 2.5 });
  e.recordStep(makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "grep", outcome: "success" }));
  e.addClause({
    id: "cl",
    literals: [{ variable: "tool:grep", negated: true }],
    source: "hard",
    failureType: "x",
    scope: "session",
    sessionId: "s",
  });
  e.checkCycle("s", "plan");
  e.checkCycle("s", "grep");
  return e;
}

describe("state document", () => {
  it("round-trips every index losslessly, clauses, steps and sketches included", () => {
    const e = busy();
    const doc = JSON.parse(JSON.stringify(e.exportDocument())) as StateDocument;
    const back = StateEngine.fromDocument(doc);
    assert.equal(JSON.stringify(back.exportDocument()), JSON.stringify(doc), "identical re-export");
    const s = back.snapshot();
    assert.equal(s.similarity.distance("p", "n"), 2.5, "distance above 1 survives");
    assert.equal(s.similarity.size(), 1, "one canonical pair, not two directions");
    assert.equal(
      s.constraints.checkAssignment({ value: (v) => v === "tool:grep", trueVariables: () => ["tool:grep"] }, s.createdAt).violatedClause
        ?.id,
      "cl",
      "watch index rebuilt",
    );
    assert.equal(s.steps.countToolExecutions("s", "grep"), 1, "tool counts rebuilt");
    assert.equal(s.streaming.estimate("n"), 4, "sketch restored");
    assert.equal(s.proof.get("n")?.proof, PROOF_INFINITY, "uint64 exact");
    assert.equal(
      back.recordStep(makeStep({ sessionId: "s", actor: "main_agent", decision: "select_tool", outcome: "success" })).result.stepNumber,
      2,
      "step numbering continues",
    );
  });

  it("rejects malformed documents with IMPORT_INVALID naming the field", () => {
    const doc = JSON.parse(JSON.stringify(busy().exportDocument()));
    const bad: [(d: typeof doc) => void, string][] = [
      [(d) => (d.formatVersion = "v0"), "formatVersion"],
      [(d) => (d.proofs[0].proof = "1.5"), "proofs[0].proof"],
      [(d) => (d.proofs[0].nodeId = ""), "proofs[0].nodeId"],
      [(d) => (d.similarity[0].distance = -1), "similarity[0].distance"],
      [(d) => d.dependencies.push({ from: "n", to: "p" }), "dependencies[1]"],
      [(d) => (d.clauses[0].source = "soft"), "clauses[0].source"],
      [(d) => (d.steps[0].steps[0].actor = "x"), "steps[0].steps[0].actor"],
      [(d) => (d.streaming.registers = "zz"), "streaming.registers"],
      [(d) => (d.proofs[0].modGeneration = 0), "proofs[0].modGeneration"],
      [(d) => (d.similarity[0].modGeneration = d.generation + 1), "similarity[0].modGeneration"],
      [(d) => delete d.constraints[0].modGeneration, "constraints[0].modGeneration"],
      [(d) => (d.cycleDetectors[0].lambda = 99), "cycleDetectors[0].lambda"],
      [(d) => (d.cycleDetectors[0].window = ["a", "b", "c"]), "cycleDetectors[0].window"],
      [(d) => (d.cycleDetectors[0].tortoise = null), "cycleDetectors[0].tortoise"],
      [(d) => (d.deltaHistory[0].label = 7), "deltaHistory[0].label"],
    ];
    for (const [mutate, field] of bad) {
      const copy = structuredClone(doc);
      mutate(copy);
      assert.throws(
        () => StateEngine.fromDocument(copy),
        (err: unknown) => isStateError(err, "IMPORT_INVALID") && err.field === field,
        `rejects ${field}`,
      );
    }
  });

  it("refuses a document of another format version as UNSUPPORTED_FORMAT, not as corruption", () => {
    const doc = { ...JSON.parse(JSON.stringify(busy().exportDocument())), formatVersion: STATE_DOCUMENT_FORMAT + 1 };
    const target = new StateEngine();
    assert.throws(
      () => StateEngine.fromDocument(doc),
      (err: unknown) => isStateError(err, "UNSUPPORTED_FORMAT") && err.field === "formatVersion",
      "fromDocument",
    );
    assert.throws(
      () => target.importDocument(doc),
      (err: unknown) => isStateError(err, "UNSUPPORTED_FORMAT"),
      "importDocument",
    );
    assert.equal(target.generation, 0, "nothing changed");
  });
});

describe("summary and reference export", () => {
  it("counts statuses and uses the reference's field names", () => {
    const e = busy();
    const sum = computeSummary(e.state);
    assert.deepEqual(
      sum,
      {
        nodes_explored: 4,
        nodes_proven: 3,
        nodes_disproven: 1,
        nodes_unknown: 0,
        constraints_applied: 1,
        exploration_depth: 1,
        confidence_score: 0.75,
      },
      "summary",
    );
    const x = referenceExport(e.state, "s", 123) as {
      indexes: { proof: { entries: { node_id: string; proof: string }[] }; similarity: { pairs: unknown[] } };
    };
    assert.equal(x.indexes.proof.entries.find((p) => p.node_id === "n")?.proof, "18446744073709551615", "uint64 as string");
    assert.deepEqual(x.indexes.similarity.pairs, [{ from_id: "n", to_id: "p", similarity: 2.5 }], "canonical pair");
    e.apply({
      kind: "history",
      source: "soft",
      entries: [{ id: "h9", nodeId: "n", action: "select", result: "ok", source: "soft", timestamp: 7, metadata: { k: "v" } }],
    });
    const h = referenceExport(e.state, "s", 123) as { indexes: { history: { recent_entries: unknown[] } } };
    assert.deepEqual(
      h.indexes.history.recent_entries.at(-1),
      { id: "h9", node_id: "n", action: "select", result: "ok", source: "soft", timestamp: 7, metadata: { k: "v" } },
      "history entries in the reference's field names",
    );
  });

  it("accepts only timestamps a date can hold, so the reference export never throws", () => {
    const e = new StateEngine();
    const entry = (updatedAt: number) => ({
      nodeId: "n",
      proof: 1n,
      disproof: 1n,
      status: "expanded" as const,
      source: "soft" as const,
      updatedAt,
    });
    assert.throws(
      () => e.apply({ kind: "proof", source: "soft", updates: [entry(8.64e15 + 1)] }),
      (err: unknown) => isStateError(err, "INVALID_DELTA") && err.field === "updates[0].updatedAt",
      "beyond the last date",
    );
    e.apply({ kind: "proof", source: "soft", updates: [entry(8.64e15)] });
    const x = referenceExport(e.state, "s", 1) as { indexes: { proof: { entries: { updated_at: string }[] } } };
    assert.equal(x.indexes.proof.entries[0]?.updated_at, "275760-09-13T00:00:00Z", "the last date, as Go writes it");
  });

  it("writes times as Go's RFC 3339: a fraction only when not zero, trailing zeros trimmed", () => {
    const cases: [number, string][] = [
      [1_700_000_000_000, "2023-11-14T22:13:20Z"],
      [1_700_000_000_500, "2023-11-14T22:13:20.5Z"],
      [1_700_000_000_120, "2023-11-14T22:13:20.12Z"],
      [1_700_000_000_123, "2023-11-14T22:13:20.123Z"],
      [0, "1970-01-01T00:00:00Z"],
      [253_402_300_800_000, "10000-01-01T00:00:00Z"],
    ];
    for (const [ms, text] of cases) assert.equal(rfc3339(ms), text, `${ms}`);
    const e = new StateEngine();
    e.apply({
      kind: "constraint",
      source: "soft",
      add: [{ id: "c", type: "ordering", nodes: ["a"], expression: "", active: true, source: "soft", createdAt: 1_700_000_000_000 }],
      remove: [],
      update: [],
    });
    const x = referenceExport(e.state, "s", 1) as { indexes: { constraint: { constraints: { created_at: string }[] } } };
    assert.equal(x.indexes.constraint.constraints[0]?.created_at, "2023-11-14T22:13:20Z", "used by the export");
  });
});

describe("import into a live engine", () => {
  it("replaces the content as a journaled restore, or changes nothing when invalid", () => {
    const source = busy();
    const target = new StateEngine();
    target.apply({
      kind: "history",
      source: "soft",
      entries: [{ id: "mine", nodeId: "", action: "a", result: "r", source: "soft", timestamp: 1, metadata: {} }],
    });
    const bad = { ...JSON.parse(JSON.stringify(source.exportDocument())), formatVersion: "nope" };
    const before = target.state;
    assert.throws(
      () => target.importDocument(bad),
      (err: unknown) => isStateError(err, "IMPORT_INVALID"),
      "invalid document",
    );
    assert.equal(target.state, before, "nothing changed");
    const m = target.importDocument(JSON.parse(JSON.stringify(source.exportDocument())));
    assert.equal(m.event?.type, "state_imported", "journaled as an import");
    assert.equal(target.generation, 2, "generation moves forward, not to the document's");
    assert.equal(target.snapshot().history.size(), 1, "history replaced by the imported one");
    assert.equal(target.snapshot().history.recent(1)[0]?.id, "h", "imported entry");
  });
});
