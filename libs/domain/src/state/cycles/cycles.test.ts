import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StateEngine } from "../engine/engine.js";
import { makeStep } from "../steps/step-record.js";
import { checkCycleOnStep } from "./cycle-on-step.js";
import { stateNodeId } from "./cycle-transition.js";
import { CycleDetector, stepStateKey, toolStateKey } from "./cycle-detector.js";
import { analyzeSessionCycles, buildDecisionGraph } from "./session-cycles.js";
import { tarjanScc } from "./tarjan.js";

function feed(states: string[]) {
  const d = new CycleDetector();
  return states.map((s) => d.addStep(s));
}

describe("cycle detector", () => {
  it("misses no return to the first state: A,B,A closes [A,B] on the third feed, as the reference does", () => {
    const results = feed(["A", "B", "A"]);
    assert.deepEqual(
      results.map((r) => r.detected),
      [false, false, true],
      "caught on the repeating feed",
    );
    assert.deepEqual([results[2]?.cycle, results[2]?.cycleLength, results[2]?.tailLength], [["A", "B"], 2, 0], "cycle and tail");
    const longer = feed(["A", "B", "C", "A"]);
    assert.deepEqual([longer[3]?.detected, longer[3]?.cycle], [true, ["A", "B", "C"]], "A,B,C,A on the fourth feed");
  });

  it("misses no loop that avoids the first state: A,B,C,B closes [B,C] after a tail of one", () => {
    const results = feed(["A", "B", "C", "B"]);
    assert.deepEqual(
      results.map((r) => r.detected),
      [false, false, false, true],
      "caught on the repeating feed",
    );
    assert.deepEqual([results[3]?.cycle, results[3]?.tailLength], [["B", "C"], 1], "cycle and tail");
  });

  it("catches a long-tailed cycle on the first repeat, its tail counted exactly", () => {
    const tail = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const loop = ["x", "y", "z"];
    const stream = [...tail, ...Array.from({ length: 30 }, (_, i) => loop[i % 3] as string)];
    const results = feed(stream);
    const at = results.findIndex((r) => r.detected);
    assert.equal(at, tail.length + loop.length, "the first state fed again");
    const hit = results[at]!;
    assert.deepEqual([hit.cycle, hit.cycleLength, hit.tailLength], [loop, 3, tail.length], "cycle and tail");
  });

  it("does not report a cycle longer than its window", () => {
    const d = new CycleDetector(3);
    const results = ["A", "B", "C", "D", "A"].map((s) => d.addStep(s));
    assert.ok(
      results.every((r) => !r.detected),
      "A left the window before it came back",
    );
    assert.equal(d.stats().windowSize, 3, "the window holds max_history states");
  });

  it("reports nothing for a stream without repeats, and resets after a detection", () => {
    assert.ok(
      feed(["a", "b", "c", "d", "e"]).every((r) => !r.detected),
      "no repeats",
    );
    const d = new CycleDetector();
    d.addStep("a");
    assert.equal(d.addStep("a").detected, true, "immediate repeat");
    assert.deepEqual(
      d.stats(),
      { stepsProcessed: 0, cyclesDetected: 1, windowSize: 0, maxHistory: 1000, lastCycleAt: 0 },
      "reset after detection keeps the lifetime count",
    );
  });

  it("builds state keys like the reference", () => {
    const s = makeStep({ sessionId: "s", actor: "router", decision: "select_tool", tool: "grep", outcome: "success" });
    assert.equal(stepStateKey(s), "select_tool:grep:success:router", "state key");
    assert.equal(toolStateKey({ tool: "", outcome: "failure" }), "no_tool:failure", "tool key without a tool");
  });
});

describe("Tarjan SCC and session analysis", () => {
  it("finds components in completion order", () => {
    const sccs = tarjanScc({
      nodes: ["a", "b", "c", "d"],
      edges: [
        ["a", "b"],
        ["b", "c"],
        ["c", "a"],
        ["c", "d"],
      ],
    });
    assert.deepEqual(
      sccs.map((c) => [...c].sort()),
      [["d"], ["a", "b", "c"]],
      "d completes first",
    );
  });

  it("handles deep chains without recursion limits", () => {
    const nodes = Array.from({ length: 50_000 }, (_, i) => `n${i}`);
    const edges = nodes.slice(1).map((n, i) => [nodes[i] as string, n] as const);
    assert.equal(tarjanScc({ nodes, edges }).length, 50_000, "one component per node");
  });

  it("analyses a session's decision loop", () => {
    const mk = (tool: string) => makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool, outcome: "success" });
    const steps = ["grep", "read", "grep", "read", "edit"].map(mk);
    assert.equal(buildDecisionGraph(steps).nodes.length, 3, "three distinct states");
    const a = analyzeSessionCycles("s", steps);
    assert.deepEqual([a.totalSccs, a.largestSccSize, a.cyclicSccs.length], [2, 2, 1], "grep/read loop found");
    assert.deepEqual(analyzeSessionCycles("s", []), { sessionId: "s", totalSccs: 0, cyclicSccs: [], largestSccSize: 0 }, "empty session");
  });
});

describe("cycle check on steps", () => {
  it("disproves the loop's states and records a circuit-breaker step in one journaled mutation", () => {
    const e = new StateEngine();
    const mk = (tool: string) => makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool, outcome: "success" });
    let found: ReturnType<typeof checkCycleOnStep> | undefined;
    for (const tool of ["plan", "grep", "read", "grep", "read", "grep", "read"]) {
      const stored = e.recordStep(mk(tool)).result;
      const r = checkCycleOnStep(e, stored);
      if (r.result.detection.detected) {
        found = r;
        break;
      }
    }
    assert.ok(found !== undefined, "loop detected");
    assert.equal(found.event?.type, "cycle_checked", "one journaled mutation");
    const s = e.snapshot();
    assert.equal(s.proof.get(stateNodeId("s", "execute_tool:grep:success:main_agent"))?.status, "disproven", "loop state disproven");
    assert.equal(s.steps.last("s")?.decision, "circuit_breaker", "breaker step recorded");
    assert.equal(s.steps.last("s")?.outcome, "forced", "forced outcome");
    assert.deepEqual(found.result.breakerStep, s.steps.last("s"), "the result names the breaker step");
  });
});
