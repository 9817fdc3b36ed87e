import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StateEngine } from "../engine/engine.js";
import { isStateError } from "../errors.js";
import { EMPTY_STATE } from "../project-state.js";
import { STATE_EVENT_FORMAT, STATE_EVENT_TYPES, type EventBody, type StateEvent } from "./event.js";
import { applyEvent } from "./replay.js";

describe("events", () => {
  it("carry the format version, and are frozen plain JSON", () => {
    const e = new StateEngine({ now: () => 4 });
    const m = e.apply(
      {
        kind: "proof",
        source: "hard",
        updates: [{ nodeId: "n", proof: 1n, disproof: 2n, status: "expanded", source: "hard", updatedAt: 1 }],
      },
      { label: "me" },
    );
    const ev = m.event as StateEvent;
    assert.equal(ev.formatVersion, 1, "stamped with the lowest version that can express it");
    assert.deepEqual(JSON.parse(JSON.stringify(ev)), ev, "JSON round trip is lossless");
    assert.ok(Object.isFrozen(ev) && ev.type === "delta_applied" && Object.isFrozen(ev.delta), "frozen deeply");
    assert.equal(ev.label, "me", "label journaled");
  });

  it("carry format 2 only for a config change, 3 only for a cycle feed and 4 only for a clause added, the types format 1 cannot express", () => {
    const e = new StateEngine();
    const config = e.updateConfig({ maxClauses: 5 }).event as StateEvent;
    assert.equal(config.formatVersion, 2);
    assert.equal((e.checkCycle("s", "k").event as StateEvent).formatVersion, 3, "a feed names its detector rule");
    const added = e.addClause({ id: "c", literals: [{ variable: "x", negated: true }], source: "hard", failureType: "" })
      .event as StateEvent;
    assert.equal(added.formatVersion, 4, "adding collects expired clauses first");
    assert.equal(STATE_EVENT_FORMAT, 4, "the engine reads up to format 4");
    // A config change journaled while every event still said 1 keeps replaying.
    const replayed = StateEngine.fromEvents([{ ...config, formatVersion: 1 } as never]);
    assert.equal(replayed.config.maxClauses, 5);
  });

  it("rejects an event of another format version with UNSUPPORTED_FORMAT, before applying it", () => {
    const ev = new StateEngine().recordSimilarity({ a: "a", b: "b", distance: 1 }).event as StateEvent;
    for (const formatVersion of [STATE_EVENT_FORMAT + 1, 0, null, "1"]) {
      assert.throws(
        () => applyEvent(EMPTY_STATE, { ...ev, formatVersion } as never),
        (err: unknown) => isStateError(err, "UNSUPPORTED_FORMAT") && err.field === "formatVersion",
        `version ${String(formatVersion)}`,
      );
    }
    assert.throws(
      () => StateEngine.fromEvents([{ ...ev, formatVersion: STATE_EVENT_FORMAT + 1 } as never]),
      (err: unknown) => isStateError(err, "UNSUPPORTED_FORMAT"),
      "fromEvents",
    );
  });

  it("reads an event journaled before events carried a version as version 1", () => {
    const { formatVersion: _, ...untagged } = new StateEngine().apply({ kind: "history", source: "soft", entries: [] })
      .event as StateEvent & { label: string };
    const { label: __, ...older } = untagged as typeof untagged & { label: string };
    const replayed = StateEngine.fromEvents([older as never]);
    assert.deepEqual([replayed.generation, replayed.snapshot().deltaHistory.all()[0]?.label], [1, ""], "replayed, label empty");
  });

  it("are a closed union: a misspelt or missing field does not compile", () => {
    // @ts-expect-error sesionId is not a field of session_ended
    const misspelt: EventBody = { type: "session_ended", sesionId: "s" };
    // @ts-expect-error cycle_checked needs its maxHistory
    const missing: EventBody = { type: "cycle_checked", sessionId: "s", stateKey: "k" };
    assert.ok(misspelt !== undefined && missing !== undefined, "checked by the compiler");
    assert.equal(new Set(STATE_EVENT_TYPES).size, 14, "every event type listed once");
  });
});
