import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { StateEngine } from "../engine/engine.js";
import { isStateError } from "../errors.js";
import type { StateDocument } from "./document.js";

// Written by the engine before delta records kept their kind: a similarity delta labelled
// `planner` (generation 1), a detected loop's disproof (4) and a client's proof delta labelled
// `cycle_detector` with a cycle reason (5).
const v1 = (): StateDocument => JSON.parse(readFileSync(new URL("./testdata/document-v1.json", import.meta.url), "utf8")) as StateDocument;

function withLoop(): StateEngine {
  const e = new StateEngine({ now: () => 11 });
  e.apply({ kind: "similarity", source: "soft", updates: [{ a: "x", b: "y", distance: 0.5 }] });
  for (const key of ["plan", "grep", "plan"]) e.checkCycle("s", key);
  return e;
}

const kinds = (e: StateEngine) =>
  e
    .snapshot()
    .deltaHistory.all()
    .map((r) => [r.generation, r.changeKind]);

function refusedAt(doc: unknown, field: string): void {
  assert.throws(
    () => StateEngine.fromDocument(doc as StateDocument),
    (err: unknown) => isStateError(err, "IMPORT_INVALID") && err.field === field,
    field,
  );
}

describe("delta record kinds in the state document", () => {
  it("a format 1 document written before kinds were kept loads, every record read as delta_applied", () => {
    const doc = v1();
    assert.equal(doc.formatVersion, 1);
    const e = StateEngine.fromDocument(doc);
    assert.equal(e.generation, 5);
    const records = e.snapshot().deltaHistory.all();
    assert.deepEqual(
      records.map((r) => [r.generation, r.label, r.changeKind]),
      [
        [1, "planner", "delta_applied"],
        [4, "cycle_detector", "delta_applied"],
        [5, "cycle_detector", "delta_applied"],
      ],
      "as answered before: the label cannot tell the detector's record from a client's",
    );
    assert.deepEqual(e.exportDocument(), doc, "written back in format 1, unchanged");
  });

  it("stays format 1, without kinds, while every record is an applied delta, so a format 1 reader loses nothing", () => {
    const e = new StateEngine({ now: () => 3 });
    e.apply({ kind: "similarity", source: "soft", updates: [{ a: "x", b: "y", distance: 0.5 }] }, { label: "cycle_detector" });
    const doc = e.exportDocument();
    assert.equal(doc.formatVersion, 1);
    assert.equal(doc.deltaHistory[0]?.changeKind, undefined);
    assert.deepEqual(kinds(StateEngine.fromDocument(doc)), [[1, "delta_applied"]]);
  });

  it("is format 2 once a loop's record is kept, so a format 1 reader refuses it instead of calling it an applied delta", () => {
    const e = withLoop();
    const doc = JSON.parse(JSON.stringify(e.exportDocument())) as StateDocument;
    assert.equal(doc.formatVersion, 2);
    assert.deepEqual(
      doc.deltaHistory.map((r) => r.changeKind),
      ["delta_applied", "cycle_detected"],
    );
    const back = StateEngine.fromDocument(doc);
    assert.deepEqual(kinds(back), kinds(e));
    assert.deepEqual(back.exportDocument(), doc, "export, import, export is identical");
    const cut = StateEngine.fromDocument(doc);
    cut.updateConfig({ maxDeltaRecords: 1 });
    assert.equal(cut.exportDocument().formatVersion, 2, "the loop's record is the one kept");
    cut.apply({ kind: "similarity", source: "soft", updates: [{ a: "x", b: "z", distance: 1 }] });
    assert.equal(cut.exportDocument().formatVersion, 1, "back to format 1 once the loop's record is dropped");
  });

  it("a record without a known kind in format 2, or with one in format 1, is IMPORT_INVALID naming it", () => {
    const doc = JSON.parse(JSON.stringify(withLoop().exportDocument())) as { deltaHistory: Record<string, unknown>[] };
    const record = doc.deltaHistory[1] as Record<string, unknown>;
    delete record.changeKind;
    refusedAt(doc, "deltaHistory[1].changeKind");
    record.changeKind = "proof_updated";
    refusedAt(doc, "deltaHistory[1].changeKind");
    const old = v1() as unknown as { deltaHistory: Record<string, unknown>[] };
    (old.deltaHistory[1] as Record<string, unknown>).changeKind = "cycle_detected";
    refusedAt(old, "deltaHistory[1].changeKind");
  });
});
