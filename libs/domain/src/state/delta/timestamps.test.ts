import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isStateError } from "../errors.js";
import { StateEngine } from "../engine/engine.js";
import type { Delta } from "./delta.js";

describe("delta timestamps", () => {
  it("a history entry, proof value or analytics run dated before 1970 is refused INVALID_DELTA naming the field, where the reference stores it", () => {
    const e = new StateEngine();
    const entry = { id: "h1", nodeId: "n", action: "a", result: "r", source: "hard" as const, timestamp: -1, metadata: {} };
    const record = {
      id: "",
      queryType: "hotspots",
      queryTime: -5,
      resultCount: 0,
      results: [],
      cycles: [],
      path: [],
      executionMs: 1,
      params: {},
    };
    const cases: [Delta, string][] = [
      [{ kind: "history", source: "hard", entries: [entry] }, "entries[0].timestamp"],
      [
        {
          kind: "proof",
          source: "hard",
          updates: [{ nodeId: "n", proof: 5n, disproof: 5n, status: "expanded", source: "hard", updatedAt: -1 }],
        },
        "updates[0].updatedAt",
      ],
      [{ kind: "analytics", source: "hard", record }, "record.queryTime"],
    ];
    for (const [delta, field] of cases) {
      assert.throws(
        () => e.apply(delta),
        (err: unknown) => isStateError(err, "INVALID_DELTA") && err.field === field,
        `refuses ${field}`,
      );
    }
    assert.equal(e.generation, 0, "nothing applied");
  });
});
