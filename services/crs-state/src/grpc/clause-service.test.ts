import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { EntryIndex } from "@crs/contracts/gen/crs/state/v1/common_pb";
import { ClauseScope, SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

const noGrepTwice = {
  id: "c1",
  literals: [
    { variable: "tool:Grep", negated: true },
    { variable: "prev_tool:Grep", negated: true },
  ],
  source: SignalSource.HARD,
  failureType: "cycle_detected",
};

describe("ClauseService through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId: "clauses" });
  });
  after(async () => {
    await s.stop();
  });

  it("learns a clause, refreshes a duplicate and reads it back by id and in lists", async () => {
    const added = await s.clauses.addClause({ projectId: "clauses", clause: noGrepTwice });
    assert.equal(added.duplicate, false);
    assert.equal(added.clause?.modGeneration, added.header?.generation);
    const dup = await s.clauses.addClause({ projectId: "clauses", clause: { ...noGrepTwice, id: "c1-again" } });
    assert.equal(dup.duplicate, true, "the same literal set refreshes the first clause");
    assert.equal(dup.clause?.id, "c1");
    assert.equal((await s.clauses.getClause({ projectId: "clauses", clauseId: "c1" })).clause?.useCount, 1n);
    const list = await s.clauses.listClauses({ projectId: "clauses" });
    assert.deepEqual(
      list.clauses.map((c) => c.id),
      ["c1"],
    );
    await expectError(s.clauses.getClause({ projectId: "clauses", clauseId: "nope" }), status.NOT_FOUND, "CLAUSE_NOT_FOUND");
  });

  it("rejects a soft clause and an id reused for other literals", async () => {
    await expectError(
      s.clauses.addClause({ projectId: "clauses", clause: { ...noGrepTwice, id: "soft", source: SignalSource.SOFT } }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "clause.source",
    );
    await expectError(
      s.clauses.addClause({ projectId: "clauses", clause: { ...noGrepTwice, literals: [{ variable: "tool:Read", negated: true }] } }),
      status.ALREADY_EXISTS,
      "CLAUSE_ID_CONFLICT",
    );
    await expectError(
      s.clauses.addClause({
        projectId: "clauses",
        clause: { ...noGrepTwice, id: "c9" },
        options: { expectedEntries: [{ index: EntryIndex.CLAUSE, key: "c9", modGeneration: 3n }] },
      }),
      status.ABORTED,
      "ENTRY_MODIFIED",
    );
  });

  it("blocks a decision a clause forbids, recording its use as a change, and checks assignments read-only", async () => {
    const step = { sessionId: "s", actor: "main_agent", decision: "execute_tool", tool: "Grep", outcome: "success" };
    await s.steps.recordStep({ projectId: "clauses", step });
    const allowed = await s.clauses.checkDecisionAllowed({ projectId: "clauses", sessionId: "s", tool: "Read" });
    assert.equal(allowed.allowed, true);
    const before = allowed.header?.generation ?? 0n;
    const blocked = await s.clauses.checkDecisionAllowed({ projectId: "clauses", sessionId: "s", tool: "Grep" });
    assert.equal(blocked.allowed, false);
    assert.equal(blocked.violatedClause?.id, "c1");
    assert.equal(blocked.header?.generation, before + 1n, "a block is journaled");
    const closed = await s.clauses.checkAssignment({
      projectId: "clauses",
      assignments: [
        { variable: "tool:Grep", value: true },
        { variable: "prev_tool:Grep", value: true },
      ],
      closedWorld: true,
    });
    assert.equal(closed.conflict, true);
    const open = await s.clauses.checkAssignment({ projectId: "clauses", assignments: [{ variable: "tool:Grep", value: true }] });
    assert.equal(open.conflict, false, "an unassigned literal leaves the clause satisfiable");
    assert.equal(open.header?.generation, blocked.header?.generation, "checking changes nothing");
    await expectError(
      s.clauses.checkAssignment({
        projectId: "clauses",
        assignments: [
          { variable: "x", value: true },
          { variable: "x", value: false },
        ],
      }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "assignments[1].variable",
    );
  });

  it("collects nothing while clauses are fresh, leaving the generation alone", async () => {
    const g = (await s.state.getGeneration({ projectId: "clauses" })).header?.generation;
    const gc = await s.clauses.garbageCollectClauses({ projectId: "clauses" });
    assert.deepEqual(gc.removedClauseIds, []);
    assert.equal(gc.header?.generation, g);
  });

  it("lets a clause scoped to one session block only that session's decisions", async () => {
    const projectId = "clauses-scoped";
    await s.state.createProject({ projectId });
    const noZap = { variable: "tool:Zap", negated: true };
    await s.clauses.addClause({
      projectId,
      clause: { id: "s1-no-zap", literals: [noZap], source: SignalSource.HARD, scope: ClauseScope.SESSION, sessionId: "s1" },
    });
    const other = await s.clauses.checkDecisionAllowed({ projectId, sessionId: "s2", tool: "Zap" });
    assert.deepEqual([other.allowed, other.reason], [true, ""], "another session is not bound by s1's clause");
    const anySession = await s.clauses.checkAssignment({ projectId, assignments: [{ variable: "tool:Zap", value: true }] });
    assert.deepEqual(
      [anySession.conflict, anySession.violatedClause?.id],
      [true, "s1-no-zap"],
      "CheckAssignment names no session, so a session's clause applies to it as its comment says",
    );
    const g = other.header?.generation;
    const own = await s.clauses.checkDecisionAllowed({ projectId, sessionId: "s1", tool: "Zap" });
    assert.deepEqual([own.allowed, own.violatedClause?.id], [false, "s1-no-zap"], "s1 is");
    await s.clauses.addClause({ projectId, clause: { id: "all-no-zap", literals: [noZap], source: SignalSource.HARD } });
    const project = await s.clauses.checkDecisionAllowed({ projectId, sessionId: "s2", tool: "Zap" });
    assert.deepEqual([project.allowed, project.violatedClause?.id], [false, "all-no-zap"], "a project clause binds every session");
    assert.equal((await s.clauses.getClause({ projectId, clauseId: "s1-no-zap" })).clause?.useCount, 1n, "only s1's own check used it");
    assert.ok(g !== undefined && (project.header?.generation ?? 0n) > g);
  });
});
