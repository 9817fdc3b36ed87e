import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { REDACTED } from "../sanitize/secret-sanitizer.js";
import { TraceRecorder, traceStepToStepRecord, type TraceStep } from "./trace-recorder.js";

const input = (extra: Partial<TraceStep> = {}): Omit<TraceStep, "step"> => ({
  timestamp: 0,
  action: "search",
  target: "main.go",
  tool: "grep",
  durationMs: 12,
  symbolsFound: [],
  dependenciesFound: [],
  error: "",
  metadata: {},
  ...extra,
});

describe("trace recorder", () => {
  it("numbers steps monotonically across eviction and stamps with the injected clock", () => {
    const t = new TraceRecorder({ maxSteps: 2, now: () => 99 });
    for (let i = 0; i < 3; i++) t.record(input());
    assert.deepEqual(
      t.all().map((s) => s.step),
      [2, 3],
      "bounded, numbers not reused",
    );
    assert.equal(t.last()?.timestamp, 99, "stamped");
    t.clear();
    assert.equal(t.record(input()).step, 1, "clear restarts numbering");
  });

  it("always sanitizes, metadata keys included, and keeps durations in ms", () => {
    const t = new TraceRecorder();
    const s = t.record(input({ error: "password=abc123", metadata: { "token=abcdefghijklmnopqrstuvwx": "v" }, timestamp: 10 }));
    assert.equal(s.error, REDACTED, "error text");
    assert.deepEqual(Object.keys(s.metadata), [REDACTED], "metadata key");
    t.record(input({ timestamp: 1510 }));
    assert.equal(t.export("s").totalDurationMs, 1500, "milliseconds");
  });

  it("hands out recorded steps that cannot be edited through their lists or metadata", () => {
    const t = new TraceRecorder();
    t.record(input({ symbolsFound: ["a"], dependenciesFound: [{ from: "a", to: "b" }], metadata: { k: "v" } }));
    const s = t.all()[0] as TraceStep;
    assert.throws(() => (s.symbolsFound as string[]).push("x"), TypeError, "symbols frozen");
    assert.throws(
      () => {
        (s.dependenciesFound[0] as { from: string }).from = "z";
      },
      TypeError,
      "edges frozen",
    );
    assert.throws(
      () => {
        (s.metadata as Record<string, string>).k = "w";
      },
      TypeError,
      "metadata frozen",
    );
    assert.deepEqual(t.last()?.symbolsFound, ["a"], "recorded step unchanged");
  });

  it("converts to a step record keeping dependencies", () => {
    const r = traceStepToStepRecord({ ...input({ error: "boom", dependenciesFound: [{ from: "a", to: "b" }] }), step: 4 }, "s");
    assert.deepEqual(
      [r.stepNumber, r.actor, r.outcome, r.errorCategory, r.resultSummary],
      [4, "system", "failure", "internal", "search: main.go"],
      "fields",
    );
    assert.equal(r.metadata.dependencies_found, "a->b", "dependencies kept");
    assert.equal(r.timestamp, 0, "an unset time is left for the step store to stamp, as the domain has no clock");
  });
});
