import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StateEngine } from "../engine/engine.js";
import { isStateError } from "../errors.js";
import type { StateEvent } from "../events/event.js";
import { stateNodeId } from "./cycle-transition.js";

const feed = (e: StateEngine, session: string, keys: string[]) => keys.map((k) => e.checkCycle(session, k));

describe("cycle detectors as state", () => {
  it("bumps the generation on every feed, each feed one journaled event", () => {
    const e = new StateEngine({ now: () => 5 });
    const ms = feed(e, "s", ["a", "b", "c"]);
    assert.deepEqual(
      ms.map((m) => m.generation),
      [1, 2, 3],
      "one generation per feed",
    );
    assert.deepEqual(
      ms.map((m) => m.event?.type),
      ["cycle_checked", "cycle_checked", "cycle_checked"],
      "one event per feed",
    );
    assert.deepEqual(
      e.snapshot().cycles.stats("s"),
      { stepsProcessed: 3, cyclesDetected: 0, windowSize: 3, maxHistory: 1000, lastCycleAt: 0 },
      "stats readable from a snapshot",
    );
  });

  it("disproves the loop, records a breaker step and a delta record in the same generation", () => {
    const e = new StateEngine({ now: () => 7 });
    const ms = feed(e, "s", ["plan", "grep", "read", "grep", "read", "grep", "read"]);
    const hit = ms.find((m) => m.result.detection.detected);
    assert.ok(hit !== undefined, "loop found");
    assert.deepEqual([...hit.result.detection.cycle].sort(), ["grep", "read"], "loop states");
    const s = e.snapshotAt(hit.generation);
    for (const key of ["grep", "read"]) {
      assert.equal(s.proof.get(stateNodeId("s", key))?.status, "disproven", `${key} disproven`);
      assert.equal(s.modGeneration("proof", stateNodeId("s", key)), hit.generation, `${key} modified by the feed`);
    }
    assert.equal(s.steps.last("s")?.decision, "circuit_breaker", "breaker step");
    assert.match(s.steps.last("s")?.reasoning ?? "", /^Brent's algorithm detected cycle of length 2: \[/, "reasoning names the loop");
    const record = s.deltaHistory.byGeneration(hit.generation);
    assert.equal(record?.label, "cycle_detector", "delta record labelled");
    assert.equal(record?.metadata.reason?.startsWith("cycle_detected:["), true, "reason kept");
    assert.deepEqual(
      s.cycles.stats("s"),
      { stepsProcessed: 0, cyclesDetected: 1, windowSize: 0, maxHistory: 1000, lastCycleAt: 7 },
      "detector reset, lifetime count kept",
    );
  });

  it("replays feeds and resets to the very same detectors, disproofs and steps", () => {
    const e = new StateEngine({ now: () => 3 });
    const events: StateEvent[] = [];
    for (const k of ["x", "y", "x", "y", "x", "y", "z"]) events.push(e.checkCycle("s", k).event as StateEvent);
    events.push(e.resetCycleDetector("t", { maxHistory: 4 }).event as StateEvent);
    events.push(e.checkCycle("t", "q").event as StateEvent);
    const replayed = StateEngine.fromEvents(JSON.parse(JSON.stringify(events)) as StateEvent[]);
    assert.equal(JSON.stringify(replayed.exportDocument()), JSON.stringify(e.exportDocument()), "same state");
    assert.deepEqual(replayed.snapshot().cycles.window("t"), ["q"], "window replayed");
  });

  it("replays a feed journaled before the first-repeat rule through Brent's detector, as it was answered then", () => {
    const e = new StateEngine({ now: () => 3 });
    const events = ["A", "B", "A"].map((k) => e.checkCycle("s", k).event as StateEvent);
    assert.deepEqual(
      events.map((ev) => [ev.formatVersion, (ev as { rule?: string }).rule]),
      [
        [3, "first_repeat"],
        [3, "first_repeat"],
        [3, "first_repeat"],
      ],
      "feeds are written at format 3 with their rule",
    );
    assert.equal(e.snapshot().cycles.stats("s")?.cyclesDetected, 1, "A,B,A closes a cycle live");
    // The same feeds as a journal written before the rule: format 1, no rule field.
    const older = events.map((ev) => {
      const { rule: _, ...rest } = ev as StateEvent & { rule?: string };
      return { ...rest, formatVersion: 1 } as StateEvent;
    });
    const replayed = StateEngine.fromEvents(older);
    assert.deepEqual(
      [replayed.generation, replayed.snapshot().cycles.stats("s")?.cyclesDetected, replayed.snapshot().cycles.window("s")],
      [3, 0, ["A", "B", "A"]],
      "Brent's detector had not met A,B,A's repeat yet",
    );
    assert.deepEqual(StateEngine.fromEvents(events).exportDocument(), e.exportDocument(), "format 3 feeds replay the live state");
  });

  it("carries detectors through checkpoints, forks and documents, and ends them with their session", () => {
    const e = new StateEngine();
    feed(e, "s", ["a", "b"]);
    const cp = e.checkpoint();
    const f = e.fork();
    feed(e, "s", ["c"]);
    assert.deepEqual(f.snapshot().cycles.window("s"), ["a", "b"], "fork keeps its own detector");
    e.restore(cp);
    assert.deepEqual(e.snapshot().cycles.window("s"), ["a", "b"], "restore rolls the detector back");
    const back = StateEngine.fromDocument(JSON.parse(JSON.stringify(e.exportDocument())));
    assert.deepEqual(back.snapshot().cycles.stats("s"), e.snapshot().cycles.stats("s"), "document round trip");
    assert.deepEqual(back.checkCycle("s", "a").result.detection.cycle, ["a", "b"], "the window survives the round trip");
    const ended = e.endSession("s");
    assert.ok(ended.event !== undefined, "ending a session with only a detector is a change");
    assert.deepEqual(e.snapshot().cycles.sessions(), [], "detector dropped");
  });

  it("resets keep the lifetime count and may change the window", () => {
    const e = new StateEngine();
    feed(e, "s", ["a", "a"]);
    const r = e.resetCycleDetector("s", { maxHistory: 3 });
    assert.equal(r.generation, 3, "a reset is a mutation");
    assert.deepEqual(
      r.result,
      { stepsProcessed: 0, cyclesDetected: 1, windowSize: 0, maxHistory: 3, lastCycleAt: 0 },
      "count kept, window changed",
    );
    feed(e, "s", ["1", "2", "3", "4"]);
    assert.deepEqual(e.snapshot().cycles.window("s"), ["2", "3", "4"], "the window holds maxHistory states");
    e.updateConfig({ cycleHistory: 5 });
    assert.equal(e.resetCycleDetector("s").result.maxHistory, 5, "a reset without a window takes the configured one");
  });

  it("rejects an empty session or state key and an out-of-range window, changing nothing", () => {
    const e = new StateEngine();
    const before = e.state;
    const cases: [() => unknown, string][] = [
      [() => e.checkCycle("", "a"), "sessionId"],
      [() => e.checkCycle("s", ""), "stateKey"],
      [() => e.checkCycle("s", "a", { maxHistory: 0 }), "maxHistory"],
      [() => e.resetCycleDetector("s", { maxHistory: 1.5 }), "maxHistory"],
      [() => e.checkCycle("s", "a", { expectedGeneration: 4 }), "expectedGeneration"],
    ];
    for (const [run, field] of cases) {
      assert.throws(run, (err: unknown) => isStateError(err) && err.field === field, field);
      assert.equal(e.state, before, `${field}: nothing changed`);
    }
  });

  it("refuses a state key that looks like a secret instead of storing it, so no two secrets merge into one state", () => {
    const e = new StateEngine();
    const before = e.state;
    for (const key of ["login password=hunter22 failure", "pwd:aaaaaaaa"])
      assert.throws(
        () => e.checkCycle("s", key),
        (err: unknown) => isStateError(err, "INVALID_ARGUMENT") && err.field === "stateKey",
        key,
      );
    assert.equal(e.state, before, "nothing stored or journaled");
  });
});
