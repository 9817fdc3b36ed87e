import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { startTestServer, type TestServer } from "./test-support.js";

// Real time runs on the server, so the test waits for it: long enough a TTL that a loaded machine
// still checks the refreshed clause well before it expires too (over a second to spare).
const TTL_MS = 3000;
const PAST_EXPIRY_MS = 300;

// Waits until `deadline` (ms since the epoch).
const sleepUntil = (deadline: number) => sleep(Math.max(0, deadline - Date.now()));

const blocks = (id: string, tool: string) => ({
  id,
  literals: [{ variable: `tool:${tool}`, negated: true }],
  source: SignalSource.HARD,
  failureType: "tool_error",
});

describe("clause expiry through gRPC", () => {
  let s: TestServer;
  const projectId = "expiring";
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId, config: { clauseTtlMs: BigInt(TTL_MS) } });
  });
  after(async () => {
    await s.stop();
  });

  it("a clause past its TTL kept blocking decisions until someone collected: it stops at once, and the next AddClause removes it and says so", async () => {
    const decide = (tool: string) => s.clauses.checkDecisionAllowed({ projectId, sessionId: "s", tool });
    await s.clauses.addClause({ projectId, clause: blocks("no-grep", "Grep") });
    await s.clauses.addClause({ projectId, clause: blocks("no-edit", "Edit") });
    // Both were learned by now: no-grep expires by this deadline at the latest.
    const grepExpired = Date.now() + TTL_MS + PAST_EXPIRY_MS;
    assert.equal((await decide("Grep")).allowed, false, "a fresh clause blocks");
    await sleep(TTL_MS / 2);
    const refreshed = await s.clauses.addClause({ projectId, clause: blocks("no-edit-again", "Edit") });
    assert.equal(refreshed.duplicate, true, "no-edit is re-learned, its TTL counted anew");
    await sleepUntil(grepExpired);

    const edit = await decide("Edit");
    assert.equal(edit.allowed, false, "the refreshed clause still blocks");
    assert.equal(edit.violatedClause?.id, "no-edit");
    const g = (await s.state.getGeneration({ projectId })).header?.generation;
    const grep = await decide("Grep");
    assert.equal(grep.allowed, true, "the expired clause no longer blocks");
    assert.equal(grep.header?.generation, g, "and no use of it is journaled");
    const check = await s.clauses.checkAssignment({ projectId, assignments: [{ variable: "tool:Grep", value: true }], closedWorld: true });
    assert.equal(check.conflict, false, "CheckAssignment does not report it either");
    const listed = await s.clauses.listClauses({ projectId });
    assert.deepEqual(listed.clauses.map((c) => c.id).sort(), ["no-edit", "no-grep"], "it is still stored until collected");

    const added = await s.clauses.addClause({ projectId, clause: blocks("no-read", "Read") });
    assert.equal(added.header?.generation, (g ?? 0n) + 1n, "one mutation, one generation");
    assert.deepEqual(added.expiredClauseIds, ["no-grep"], "and it says which expired clauses it removed");
    assert.equal(added.evictedClauseId, "", "none of them as an eviction");
    const remaining = await s.clauses.listClauses({ projectId });
    assert.deepEqual(remaining.clauses.map((c) => c.id).sort(), ["no-edit", "no-read"], "adding a clause removed the expired one");
    assert.deepEqual((await s.clauses.garbageCollectClauses({ projectId })).removedClauseIds, [], "nothing left to collect");
  });
});
