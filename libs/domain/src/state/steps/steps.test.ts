import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isStateError } from "../errors.js";
import { StateEngine } from "../engine/engine.js";
import { makeStep, type StepRecord } from "./step-record.js";

const step = (extra: Partial<StepRecord> = {}): StepRecord =>
  makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "t", outcome: "success", ...extra });

describe("step records", () => {
  it("validate in the reference's order with named fields", () => {
    const e = new StateEngine();
    const cases: [Partial<StepRecord>, string, string][] = [
      [{ sessionId: "" }, "sessionId", "session_id must not be empty"],
      [{ stepNumber: -1 }, "stepNumber", "step_number must be >= 1"],
      [{ actor: "robot" as never }, "actor", 'actor "robot" is not a valid actor'],
      [{ decision: "" as never }, "decision", "decision must not be empty"],
      [{ outcome: "meh" as never }, "outcome", 'outcome "meh" is not a valid outcome'],
      [{ outcome: "failure" }, "errorCategory", "error_category is required when outcome is failure"],
      [{ confidence: 1.5 }, "confidence", "confidence must be in range [0.0, 1.0]"],
      [{ durationMs: -1 }, "durationMs", "duration_ms must be non-negative"],
    ];
    for (const [patch, field, text] of cases) {
      assert.throws(
        () => e.recordStep(step(patch)),
        (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === field && err.message.includes(text),
        `rejects ${field}`,
      );
    }
    assert.deepEqual(e.snapshot().steps.sessions(), [], "rejected steps create no session bucket");
  });

  it("rejects metadata that is not an object instead of spreading it into one", () => {
    for (const sanitizer of [undefined, false] as const) {
      const e = new StateEngine({ sanitizer });
      for (const metadata of [null, "abc", ["v"]]) {
        assert.throws(
          () => e.recordStep(step({ metadata: metadata as never })),
          (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === "metadata",
          `rejects ${JSON.stringify(metadata)}`,
        );
      }
      assert.equal(e.generation, 0, "nothing recorded");
    }
  });

  it("auto-numbers and stamps steps, numbering never repeating after eviction", () => {
    const e = new StateEngine({ now: () => 500, config: { maxStepsPerSession: 2 } });
    for (let i = 0; i < 4; i++) e.recordStep(step());
    const h = e.snapshot().steps.history("s");
    assert.deepEqual(
      h.map((s) => s.stepNumber),
      [3, 4],
      "oldest evicted, numbers keep rising",
    );
    assert.equal(h[0]?.timestamp, 500, "stamped with the injected clock");
  });

  it("an auto-numbered step follows the highest number in its session, not the session's length as in the reference", () => {
    const e = new StateEngine();
    e.recordStep(step({ stepNumber: 5 }));
    assert.equal(e.recordStep(step()).result.stepNumber, 6, "after a client's 5 comes 6 (the reference gives 2)");
    e.recordStep(step({ stepNumber: 2 }));
    assert.equal(e.recordStep(step()).result.stepNumber, 7, "a lower client number does not pull numbering back");
  });

  it("a step asking for a number after the largest one a session held is refused for that, not as a number below 1", () => {
    const e = new StateEngine();
    e.recordStep(step({ stepNumber: Number.MAX_SAFE_INTEGER }));
    const g = e.generation;
    assert.throws(
      () => e.recordStep(step()),
      (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === "stepNumber" && /none is left to assign/.test(err.message),
      "no number is left to assign",
    );
    assert.equal(e.generation, g, "nothing recorded");
    assert.equal(e.recordStep(step({ stepNumber: 7 })).result.stepNumber, 7, "a number given explicitly is still taken");
  });

  it("a step with a negative timestamp is refused INVALID_ARGUMENT naming the field, where the reference stores it", () => {
    const e = new StateEngine({ now: () => 500 });
    assert.throws(
      () => e.recordStep(step({ timestamp: -1 })),
      (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === "timestamp",
      "negative Unix ms refused",
    );
    assert.equal(e.generation, 0, "nothing recorded");
  });

  it("evicts only after a step validated, keeping tool counts consistent", () => {
    const e = new StateEngine({ config: { maxStepsPerSession: 2 } });
    e.recordStep(step({ tool: "a" }));
    e.recordStep(step({ tool: "b" }));
    assert.throws(
      () => e.recordStep(step({ confidence: 2 })),
      (err: unknown) => isStateError(err),
      "invalid step",
    );
    const s = e.snapshot();
    assert.deepEqual(
      s.steps.history("s").map((x) => x.tool),
      ["a", "b"],
      "nothing evicted by the invalid step",
    );
    e.recordStep(step({ tool: "c" }));
    assert.equal(e.snapshot().steps.countToolExecutions("s", "a"), 0, "evicted execution uncounted");
    assert.equal(e.snapshot().steps.countToolExecutions("s", "c"), 1, "new execution counted");
  });

  it("filters by actor and outcome in insertion order and clears with the session", () => {
    const e = new StateEngine();
    e.recordStep(step({ actor: "router", decision: "select_tool" }));
    e.recordStep(step({ outcome: "failure", errorCategory: "network" }));
    e.recordStep(step());
    const s = e.snapshot();
    assert.deepEqual(
      s.steps.byActor("s", "router").map((x) => x.stepNumber),
      [1],
      "by actor",
    );
    assert.deepEqual(
      s.steps.byOutcome("s", "success").map((x) => x.stepNumber),
      [1, 3],
      "by outcome",
    );
    assert.equal(s.steps.last("s")?.stepNumber, 3, "last step");
    assert.equal(s.steps.countToolExecutions("s", "t"), 2, "execute_tool steps counted whatever the outcome");
    e.endSession("s");
    assert.deepEqual(e.snapshot().steps.history("s"), [], "session ended");
  });
});
