/** A clause stops acting the moment its TTL passes, whether or not it has been collected yet. */

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StateEngine } from "../engine/engine.js";
import type { StateEvent } from "../events/event.js";
import { makeStep } from "../steps/step-record.js";
import { closedWorldAssignment } from "./clause.js";
import type { ClauseInput } from "./clause-store.js";

const TTL = 100;

const blockTool = (id: string, tool: string): ClauseInput => ({
  id,
  literals: [{ variable: `tool:${tool}`, negated: true }],
  source: "hard",
  failureType: "tool_error",
});

/** An engine at `clock.now` with one step recorded in session "s", its events kept. */
function engineAt(clock: { now: number }, maxClauses = 10): { e: StateEngine; events: StateEvent[] } {
  const e = new StateEngine({ now: () => clock.now, config: { clauseTtlMs: TTL, maxClauses } });
  const events: StateEvent[] = [];
  const keep = <T extends { event: StateEvent | undefined }>(m: T): T => {
    if (m.event !== undefined) events.push(m.event);
    return m;
  };
  keep(e.recordStep(makeStep({ sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "read", outcome: "success" })));
  const add = e.addClause.bind(e);
  e.addClause = (input, opts) => keep(add(input, opts));
  return { e, events };
}

describe("clause expiry", () => {
  it("an expired clause that was never collected still blocked decisions: it no longer does, and a refreshed one still does", () => {
    const clock = { now: 1000 };
    const { e } = engineAt(clock);
    e.addClause(blockTool("old", "grep"));
    e.addClause(blockTool("kept", "edit"));
    clock.now = 1000 + TTL;
    assert.equal(e.checkDecisionAllowed("s", "grep").result.allowed, false, "at exactly the TTL the clause still acts");
    clock.now = 1050;
    e.addClause(blockTool("kept-again", "edit"));
    clock.now = 1000 + TTL + 1;
    const before = e.generation;
    const grep = e.checkDecisionAllowed("s", "grep");
    assert.equal(grep.result.allowed, true, "one ms past its TTL the clause no longer blocks");
    assert.equal(grep.event, undefined, "an expired clause has no use recorded");
    assert.equal(e.generation, before, "nothing changed");
    assert.ok(e.snapshot().constraints.getClause("old") !== undefined, "it is still stored, awaiting collection");
    assert.equal(e.checkDecisionAllowed("s", "edit").result.allowed, false, "the refreshed clause still blocks");
  });

  it("an expired clause earlier in the choice order hid a live one behind it: the live one is reported", () => {
    const clock = { now: 1000 };
    const { e } = engineAt(clock);
    e.addClause(blockTool("a-expired", "grep"));
    clock.now = 1090;
    e.addClause({
      ...blockTool("b-live", "grep"),
      literals: [...blockTool("", "grep").literals, { variable: "prev_tool:read", negated: true }],
    });
    clock.now = 1150;
    const v = e.checkDecisionAllowed("s", "grep").result;
    assert.equal(v.clause?.id, "b-live", "the expired earlier clause is passed over, not the answer");
    const check = e.checkAssignment(closedWorldAssignment(["tool:grep", "prev_tool:read"]));
    assert.equal(check.violatedClause?.id, "b-live", "CheckAssignment passes over it too");
    clock.now = 1191;
    assert.equal(
      e.checkAssignment(closedWorldAssignment(["tool:grep", "prev_tool:read"])).conflict,
      false,
      "once both expire, no conflict",
    );
  });

  it("expired clauses counted toward the limit and were refreshed back to life: adding a clause collects them first, and replay agrees", () => {
    const clock = { now: 1000 };
    const { e, events } = engineAt(clock, 2);
    e.addClause(blockTool("c1", "grep"));
    e.addClause(blockTool("c2", "edit"));
    clock.now = 1200;
    const added = e.addClause(blockTool("c3", "grep"));
    assert.equal(added.result.outcome, "added", "the expired equal clause is not refreshed back to life");
    assert.equal(added.result.evicted, undefined, "no eviction: the expired clauses no longer took room");
    assert.deepEqual(
      e
        .snapshot()
        .constraints.allClauses()
        .map((c) => c.id),
      ["c3"],
      "c1 and c2 were removed in the same generation",
    );
    assert.equal(events.at(-1)?.formatVersion, 4, "the event says it collects, so an older reader refuses it");
    const replayed = StateEngine.fromEvents(events, { config: { clauseTtlMs: TTL, maxClauses: 2 } });
    assert.deepEqual(replayed.exportDocument(), e.exportDocument(), "replay removes the same clauses");
  });

  it("a clause_added event journaled before collection on add removed clauses on replay that its writer kept", () => {
    const clock = { now: 1000 };
    const { e, events } = engineAt(clock);
    e.addClause(blockTool("c1", "grep"));
    clock.now = 1200;
    e.addClause(blockTool("c2", "edit"));
    // The same history as an older writer journaled it: no collectExpired, format 1.
    const old = events.map((ev) => {
      if (ev.type !== "clause_added") return ev;
      const { collectExpired: _, ...rest } = ev;
      return { ...rest, formatVersion: 1 } as StateEvent;
    });
    const replayed = StateEngine.fromEvents(old, { config: { clauseTtlMs: TTL, maxClauses: 10 } });
    assert.ok(replayed.snapshot().constraints.getClause("c1") !== undefined, "the old event replays as it ran: c1 is kept");
    assert.equal(e.snapshot().constraints.getClause("c1"), undefined, "the new event removes it");
  });
});
