import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareUtf8, sortUtf8, utf8Length } from "./bytes.js";
import { DEFAULT_STATE_CONFIG, resolveConfig } from "./config.js";
import { invalidArgument, isStateError, STATE_ERROR_CODES, StateError } from "./errors.js";

describe("StateError", () => {
  it("carries code, field and a module-prefixed message", () => {
    const err = invalidArgument("updates[0].nodeId", "node_id must not be empty");
    assert.equal(err.code, "INVALID_ARGUMENT", "code kept");
    assert.equal(err.field, "updates[0].nodeId", "field kept");
    assert.equal(err.message, "state: node_id must not be empty", "message starts with the module name");
    assert.ok(isStateError(err, "INVALID_ARGUMENT"), "isStateError matches the code");
    assert.ok(!isStateError(err, "INVALID_DELTA"), "isStateError rejects another code");
    assert.ok(!isStateError(new Error("x")), "plain errors are not state errors");
  });

  it("prefixes nested field paths without losing the cause", () => {
    const inner = new StateError("INVALID_DELTA", "bad", { field: "source" });
    const outer = inner.withFieldPrefix("deltas[2]");
    assert.equal(outer.field, "deltas[2].source", "prefix joined with a dot");
    assert.equal(outer.code, "INVALID_DELTA", "code preserved");
  });

  it("lists every code exactly once", () => {
    assert.equal(new Set(STATE_ERROR_CODES).size, STATE_ERROR_CODES.length, "codes are unique");
    for (const code of [
      "INVALID_DELTA",
      "HARD_SIGNAL_VIOLATION",
      "GENERATION_MISMATCH",
      "NODE_NOT_FOUND",
      "CLAUSE_CONFLICT",
      "SNAPSHOT_STALE",
    ] as const) {
      assert.ok(STATE_ERROR_CODES.includes(code), `${code} is listed`);
    }
  });
});

describe("config", () => {
  it("has the reference's defaults", () => {
    assert.deepEqual({ ...DEFAULT_STATE_CONFIG.circuitBreakerThresholds }, { find_callers: 4, find_callees: 4, Grep: 5 }, "thresholds");
    assert.equal(DEFAULT_STATE_CONFIG.defaultCircuitBreakerThreshold, 2, "default threshold");
    assert.equal(DEFAULT_STATE_CONFIG.maxStepsPerSession, 10_000, "steps per session");
    assert.equal(DEFAULT_STATE_CONFIG.clauseTtlMs, 604_800_000, "clause TTL 7 days");
    assert.equal(DEFAULT_STATE_CONFIG.maxClauses, 1000, "clause cap");
    assert.equal(DEFAULT_STATE_CONFIG.maxSimilarityPairs, 10_000, "similarity cap");
    assert.equal(DEFAULT_STATE_CONFIG.maxDeltaRecords, 1000, "delta records");
    assert.equal(DEFAULT_STATE_CONFIG.maxAnalyticsRecords, 100, "analytics records");
    assert.equal(DEFAULT_STATE_CONFIG.maxResultsPerRecord, 50, "results per record");
    assert.equal(DEFAULT_STATE_CONFIG.maxPropagationDepth, 100, "propagation depth");
  });

  it("rejects non-positive per-tool thresholds instead of ignoring them", () => {
    assert.throws(
      () => resolveConfig({ circuitBreakerThresholds: { Grep: 0 } }),
      (e: unknown) =>
        isStateError(e, "INVALID_CONFIG") && e.field === "circuitBreakerThresholds.Grep" && /must be positive, got 0/.test(e.message),
      "zero threshold is INVALID_CONFIG naming the tool",
    );
    assert.throws(
      () => resolveConfig({ maxClauses: -1 }),
      (e: unknown) => isStateError(e, "INVALID_CONFIG") && e.field === "maxClauses",
      "negative cap rejected",
    );
  });
});

describe("byte-wise UTF-8 ordering", () => {
  it("sorts astral characters after U+E000..U+FFFF, as UTF-8 bytes do", () => {
    const astral = "𝔸"; // U+1D538, a surrogate pair in UTF-16
    const bmpHigh = "\uFF21"; // U+FF21
    assert.ok(astral < bmpHigh, "UTF-16 comparison puts the astral character first");
    assert.equal(compareUtf8(astral, bmpHigh), 1, "UTF-8 order puts it last");
    assert.deepEqual(sortUtf8(["b", astral, "a", bmpHigh, "é"]), ["a", "b", "é", bmpHigh, astral], "full order");
    assert.equal(compareUtf8("ab", "abc"), -1, "prefix sorts first");
    assert.equal(compareUtf8("x", "x"), 0, "equal strings");
  });

  it("measures UTF-8 length in bytes", () => {
    assert.equal(utf8Length("aé€𝔸"), 1 + 2 + 3 + 4, "1+2+3+4 bytes");
  });
});
