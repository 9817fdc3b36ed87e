import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Delta } from "../delta/delta.js";
import { StateEngine } from "../engine/engine.js";
import { isStateError } from "../errors.js";

const proof = (nodeId: string, p: bigint): Delta => ({
  kind: "proof",
  source: "soft",
  updates: [{ nodeId, proof: p, disproof: 1n, status: "expanded", source: "soft", updatedAt: 1 }],
});
const constraint = (id: string): Delta => ({
  kind: "constraint",
  source: "soft",
  add: [{ id, type: "ordering", nodes: ["a"], expression: "", active: true, source: "soft", createdAt: 1 }],
  remove: [],
  update: [],
});

describe("per-entry modification generations", () => {
  it("records the generation that last changed each entry, and forgets removed ones", () => {
    const e = new StateEngine();
    e.apply(proof("n", 1n));
    e.apply(constraint("c"));
    e.recordSimilarity({ a: "y", b: "x", distance: 1 });
    e.addClause({ id: "k", literals: [{ variable: "tool:x", negated: true }], source: "hard", failureType: "f" });
    e.apply(proof("n", 2n));
    const s = e.snapshot();
    assert.deepEqual(
      [
        s.modGeneration("proof", "n"),
        s.modGeneration("constraint", "c"),
        s.modGeneration("similarity", '["x","y"]'),
        s.modGeneration("similarity", '["y","x"]'),
        s.modGeneration("clause", "k"),
      ],
      [5, 2, 3, 3, 4],
      "last change per entry, pair keys in either order",
    );
    e.apply({ kind: "constraint", source: "soft", add: [], remove: ["c"], update: [] });
    assert.equal(e.snapshot().modGeneration("constraint", "c"), 0, "a removed entry reads 0");
    assert.equal(JSON.stringify(e.exportDocument().proofs.map((p) => p.modGeneration)), "[5]", "exported with the entry");
  });

  it("keeps the mod generation of a pair whose ids hold quotes, commas, backslashes or control characters", () => {
    const e = new StateEngine();
    const pairs: [string, string][] = [
      ['a","b', "c"],
      ["x\\y", 'q"'],
      ["line\nbreak", "tab\tx"],
      ["\u00e9t\u00e9", "\ud83d\ude00"],
      ['","', '"]'],
    ];
    for (const [a, b] of pairs) e.apply({ kind: "similarity", source: "soft", updates: [{ a, b, distance: 1 }] });
    const s = e.snapshot();
    pairs.forEach(([a, b], i) => {
      assert.equal(s.modGeneration("similarity", JSON.stringify([a, b])), i + 1, `pair ${JSON.stringify([a, b])}`);
      assert.equal(s.modGeneration("similarity", JSON.stringify([b, a])), i + 1, `pair ${JSON.stringify([b, a])}`);
    });
  });

  it("fails a mutation whose expected entry changed with ENTRY_MODIFIED naming the key, changing nothing", () => {
    const e = new StateEngine();
    e.apply(proof("n", 1n));
    e.apply(proof("n", 2n));
    const before = e.state;
    assert.throws(
      () => e.apply(proof("m", 1n), { expectedEntries: [{ index: "proof", key: "n", modGeneration: 1 }] }),
      (err: unknown) =>
        isStateError(err, "ENTRY_MODIFIED") &&
        err.field === "expectedEntries[0].key" &&
        err.metadata.key === "n" &&
        err.metadata.actual === "2" &&
        err.metadata.expected === "1",
      "stale read refused",
    );
    assert.equal(e.state, before, "nothing changed");
    const m = e.updateProof(
      { nodeId: "n", type: "increment", delta: 1n, reason: "", source: "soft" },
      { expectedEntries: [{ index: "proof", key: "n", modGeneration: 2 }] },
    );
    assert.equal(m.generation, 3, "a current read passes, for any kind of mutation");
  });

  it("treats mod generation 0 as must-not-exist, like a create-only compare", () => {
    const e = new StateEngine();
    const create = () => e.apply(constraint("c"), { expectedEntries: [{ index: "constraint", key: "c", modGeneration: 0 }] });
    assert.equal(create().generation, 1, "absent: passes");
    assert.throws(create, (err: unknown) => isStateError(err, "ENTRY_MODIFIED") && /exists/.test(err.message), "present: refused");
  });

  it("rejects malformed expected entries as INVALID_ARGUMENT naming the field, before comparing any", () => {
    const e = new StateEngine();
    e.apply(proof("n", 1n));
    const bad: [unknown, string][] = [
      [[{ index: "steps", key: "n", modGeneration: 1 }], "expectedEntries[0].index"],
      [[{ index: "proof", key: "", modGeneration: 1 }], "expectedEntries[0].key"],
      [[{ index: "proof", key: "n", modGeneration: -1 }], "expectedEntries[0].modGeneration"],
      [
        [
          { index: "proof", key: "n", modGeneration: 9 },
          { index: "similarity", key: "x", modGeneration: 0 },
        ],
        "expectedEntries[1].key",
      ],
      ["n", "expectedEntries"],
    ];
    for (const [expectedEntries, field] of bad) {
      assert.throws(
        () => e.apply(proof("m", 1n), { expectedEntries } as never),
        (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === field,
        field,
      );
    }
    assert.equal(e.generation, 1, "nothing changed");
  });

  it("marks every entry a restore brings back as changed by the restore", () => {
    const e = new StateEngine();
    e.apply(proof("n", 1n));
    const cp = e.checkpoint();
    e.apply(proof("n", 2n));
    e.restore(cp);
    assert.equal(e.snapshot().modGeneration("proof", "n"), 3, "a read from before the restore no longer matches");
  });

  it("keeps who applied a delta in its history record beside the signal source", () => {
    const e = new StateEngine();
    e.apply(proof("n", 1n), { label: "planner-v2", sessionId: "s" });
    e.apply(proof("n", 2n));
    assert.deepEqual(
      e
        .snapshot()
        .deltaHistory.all()
        .map((r) => [r.label, r.source]),
      [
        ["planner-v2", "soft"],
        ["", "soft"],
      ],
      "labels",
    );
    assert.throws(
      () => e.apply(proof("n", 3n), { label: 5 as never }),
      (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === "label",
      "label must be text",
    );
  });
});
