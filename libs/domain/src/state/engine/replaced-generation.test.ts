import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ProofDelta } from "../delta/delta.js";
import { isStateError } from "../errors.js";
import type { StateEvent } from "../events/event.js";
import { fromDocument } from "../export/import.js";
import { StateEngine } from "./engine.js";

const pd = (nodeId: string): ProofDelta => ({
  kind: "proof",
  source: "soft",
  updates: [{ nodeId, proof: 1n, disproof: 1n, status: "expanded", source: "soft", updatedAt: 1 }],
});

describe("the generation of the last replacement", () => {
  it("is lost neither by replay nor by a document, and a later restore or import moves it to its own generation", () => {
    const e = new StateEngine();
    const events: StateEvent[] = [];
    events.push(e.apply(pd("a")).event as StateEvent);
    const cp = e.checkpoint();
    const doc = e.exportDocument();
    assert.equal(doc.replacedGeneration, undefined, "a state never replaced writes no field");
    events.push(e.apply(pd("b")).event as StateEvent);
    events.push(e.restore(cp).event as StateEvent);
    assert.equal(e.state.replacedGeneration, 3, "the restore's generation");
    events.push(e.apply(pd("c")).event as StateEvent);
    assert.equal(e.state.replacedGeneration, 3, "an ordinary change keeps it");
    assert.equal(StateEngine.fromEvents(JSON.parse(JSON.stringify(events))).state.replacedGeneration, 3, "replay sets it");
    const written = JSON.parse(JSON.stringify(e.exportDocument()));
    assert.equal(written.replacedGeneration, 3, "the document carries it");
    assert.equal(fromDocument(written, e.config).replacedGeneration, 3, "and reads it back");
    // A checkpoint taken after the restore remembers it; restoring it is a replacement of its own.
    const later = e.checkpoint();
    e.apply(pd("d"));
    e.restore(later);
    assert.equal(e.state.replacedGeneration, 6, "a second restore");
    e.importDocument(written);
    assert.equal(e.state.replacedGeneration, 7, "an import, whatever the document remembered");
  });

  it("reads a document written before the field as never replaced, and refuses one beyond its generation as IMPORT_INVALID", () => {
    const e = new StateEngine();
    e.apply(pd("a"));
    const doc = e.exportDocument();
    assert.equal(fromDocument(doc, e.config).replacedGeneration, 0);
    for (const bad of [-1, 2, 1.5, "1"]) {
      assert.throws(
        () => fromDocument({ ...doc, replacedGeneration: bad as number }, e.config),
        (err: unknown) => isStateError(err) && err.code === "IMPORT_INVALID" && err.field === "replacedGeneration",
        `replacedGeneration ${String(bad)}`,
      );
    }
  });
});
