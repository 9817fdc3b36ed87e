import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PROOF_INFINITY } from "../proof/proof-number.js";
import { deltaFromJson, deltaToJson } from "./codec.js";
import type { Delta, ProofEntry } from "./delta.js";

const entry = (nodeId: string, proof: bigint, disproof: bigint): ProofEntry => ({
  nodeId,
  proof,
  disproof,
  status: "expanded",
  source: "soft",
  updatedAt: 1,
});

describe("proof delta JSON", () => {
  it("round-trips values on both sides of the shared small numbers", () => {
    const values = [0n, 1n, 10n, 1023n, 1024n, 9999n, 10000n, 2n ** 53n + 1n, PROOF_INFINITY - 1n, PROOF_INFINITY];
    const d = { kind: "proof" as const, source: "soft" as const, updates: values.map((v, i) => entry(`n${i}`, v, v)) };
    const json = deltaToJson(d);
    if (json.kind !== "proof") throw new Error("kind");
    assert.deepEqual(
      json.updates.map((u) => u.proof),
      values.map(String),
      "decimal strings",
    );
    assert.deepEqual(deltaFromJson(JSON.parse(JSON.stringify(json))), d, "decoded equals original");
  });

  it("copies fields beyond a proof entry's as given, an own __proto__ key as a plain field", () => {
    const u: Record<string, unknown> = { ...entry("n", 1n, 2n), note: "kept" };
    Object.defineProperty(u, "__proto__", { value: { polluted: true }, enumerable: true, writable: true, configurable: true });
    const json = deltaToJson({ kind: "proof", source: "soft", updates: [u as unknown as ProofEntry] });
    const copy = (json.kind === "proof" ? json.updates[0] : undefined) as unknown as Record<string, unknown>;
    assert.equal(copy.note, "kept", "extra field copied");
    assert.equal(Object.getPrototypeOf(copy), Object.prototype, "prototype untouched");
    assert.ok(Object.hasOwn(copy, "__proto__"), "__proto__ kept as an own field");
    assert.deepEqual(
      Object.keys(copy),
      ["nodeId", "proof", "disproof", "status", "source", "updatedAt", "note", "__proto__"],
      "entry fields first, then the others in the caller's order",
    );
    u.note = "changed";
    assert.equal(copy.note, "kept", "no alias of the caller's entry");
  });
});

describe("other delta JSON", () => {
  it("copies a similarity delta frozen, with no alias of the caller's pairs", () => {
    const d = { kind: "similarity" as const, source: "soft" as const, updates: [{ a: "x", b: "y", distance: 0.5 }] };
    const json = deltaToJson(d);
    d.updates[0]!.distance = 0.9;
    assert.deepEqual(json, { kind: "similarity", source: "soft", updates: [{ a: "x", b: "y", distance: 0.5 }] }, "caller's edit not seen");
    assert.ok(Object.isFrozen(json) && json.kind === "similarity" && Object.isFrozen(json.updates[0]), "frozen at every level");
  });

  it("refuses a delta holding a function as INVALID_DELTA", () => {
    const d = { kind: "similarity", source: "soft", updates: [{ a: "x", b: "y", distance: () => 1 }] } as unknown as Delta;
    assert.throws(
      () => deltaToJson(d),
      (e: unknown) => (e as { code?: string }).code === "INVALID_DELTA",
    );
  });
});
