import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

describe("CycleService through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId: "cy" });
  });
  after(async () => {
    await s.stop();
  });

  it("journals every feed, and on a loop disproves its states and records a circuit-breaker step", async () => {
    let last: Awaited<ReturnType<TestServer["cycles"]["checkCycle"]>> | undefined;
    let generation = 0n;
    for (const key of ["A", "B", "A", "B", "A"]) {
      last = await s.cycles.checkCycle({ projectId: "cy", sessionId: "s1", stateKey: key });
      assert.equal(last.header?.generation, generation + 1n, "every feed is a change");
      generation = last.header?.generation ?? 0n;
      if (last.detection?.detected === true) break;
    }
    assert.equal(last?.detection?.detected, true, "the loop is found");
    assert.ok(
      (last?.disprovenNodes ?? []).every((n) => n.startsWith("session:s1:state:")),
      "state nodes disproven",
    );
    assert.equal(last?.circuitBreakerStep?.decision, "circuit_breaker");
    const stats = await s.cycles.getCycleDetectorStats({ projectId: "cy", sessionId: "s1" });
    assert.equal(stats.cyclesDetected, 1n);
    assert.equal(stats.maxHistory, 1000);
  });

  it("replays a retried feed instead of feeding the detector twice", async () => {
    const a = await s.cycles.checkCycle({ projectId: "cy", sessionId: "s2", stateKey: "X", options: { requestId: "feed-1" } });
    const b = await s.cycles.checkCycle({ projectId: "cy", sessionId: "s2", stateKey: "X", options: { requestId: "feed-1" } });
    assert.equal(b.header?.replayed, true);
    assert.equal(b.header?.generation, a.header?.generation);
    assert.equal((await s.cycles.getCycleDetectorStats({ projectId: "cy", sessionId: "s2" })).stepsProcessed, 1n);
  });

  it("resets a detector as a change and reads a never-fed one as zeros", async () => {
    const g = (await s.state.getGeneration({ projectId: "cy" })).header?.generation ?? 0n;
    const reset = await s.cycles.resetCycleDetector({ projectId: "cy", sessionId: "s2" });
    assert.equal(reset.header?.generation, g + 1n);
    assert.equal((await s.cycles.getCycleDetectorStats({ projectId: "cy", sessionId: "s2" })).stepsProcessed, 0n);
    assert.equal((await s.cycles.getCycleDetectorStats({ projectId: "cy", sessionId: "fresh" })).windowSize, 0);
    await expectError(
      s.cycles.checkCycle({ projectId: "cy", sessionId: "s2", stateKey: "" }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "state_key",
    );
    // A session id that looks like a secret is refused naming session_id, not journaled.
    const before = (await s.state.getGeneration({ projectId: "cy" })).header?.generation;
    await expectError(
      s.cycles.checkCycle({ projectId: "cy", sessionId: `AKIA${"Q".repeat(16)}`, stateKey: "k" }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "session_id",
    );
    assert.equal((await s.state.getGeneration({ projectId: "cy" })).header?.generation, before, "nothing changed");
  });

  it("finds the strongly connected components of a session's decisions", async () => {
    const step = (tool: string) => ({ sessionId: "s3", actor: "main_agent", decision: "execute_tool", tool, outcome: "success" });
    for (const tool of ["Grep", "Read", "Grep", "Read", "Edit"]) await s.steps.recordStep({ projectId: "cy", step: step(tool) });
    const r = await s.cycles.analyzeSessionCycles({ projectId: "cy", sessionId: "s3" });
    assert.equal(r.largestSccSize, 2);
    assert.equal(r.cyclicSccs.length, 1);
    assert.equal(r.truncated, false);
  });

  it("reports a never-fed detector's window capacity from the configuration of the generation read", async () => {
    await s.state.createProject({ projectId: "cy-cfg", config: { cycleDetectorMaxHistory: 50 } });
    const changed = await s.state.updateProjectConfig({
      projectId: "cy-cfg",
      config: { cycleDetectorMaxHistory: 70 },
      updateMask: { paths: ["cycle_detector_max_history"] },
    });
    const before = await s.cycles.getCycleDetectorStats({ projectId: "cy-cfg", sessionId: "never", atGeneration: 0n });
    const now = await s.cycles.getCycleDetectorStats({ projectId: "cy-cfg", sessionId: "never" });
    assert.deepEqual(
      [before.header?.generation, before.maxHistory, now.header?.generation, now.maxHistory],
      [0n, 50, changed.header?.generation, 70],
    );
  });
});
