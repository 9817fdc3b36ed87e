import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { status } from "@grpc/grpc-js";
import { expectError, startTestServer, type TestServer } from "./test-support.js";

const step = (sessionId: string, tool: string, extra: Record<string, unknown> = {}) => ({
  sessionId,
  actor: "main_agent",
  decision: "execute_tool",
  tool,
  outcome: "success",
  confidence: 0.5,
  reasoning: "password=hunter2",
  ...extra,
});

describe("StepService through gRPC", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await s.state.createProject({ projectId: "steps" });
  });
  after(async () => {
    await s.stop();
  });

  it("records numbered, sanitized steps and lists them by session, actor and outcome", async () => {
    const r = await s.steps.recordStep({ projectId: "steps", step: step("s1", "Grep"), options: { requestId: "st-1" } });
    assert.equal(r.step?.stepNumber, 1n, "numbered by the server");
    assert.ok(!(r.step?.reasoning ?? "").includes("hunter2"), "secrets are redacted before storage");
    await s.steps.recordStep({ projectId: "steps", step: step("s1", "Grep", { outcome: "failure", errorCategory: "timeout" }) });
    await s.steps.recordStep({ projectId: "steps", step: step("s2", "Read") });
    const all = await s.steps.listSteps({ projectId: "steps", sessionId: "s1" });
    assert.deepEqual(
      all.steps.map((x) => x.stepNumber),
      [1n, 2n],
    );
    assert.equal(all.totalSize, 2n);
    const failed = await s.steps.listSteps({ projectId: "steps", sessionId: "s1", outcome: "failure" });
    assert.deepEqual(
      failed.steps.map((x) => x.errorCategory),
      ["timeout"],
    );
    assert.equal((await s.steps.countToolExecutions({ projectId: "steps", sessionId: "s1", tool: "Grep" })).count, 2n);
    assert.equal(
      (await s.steps.countToolExecutions({ projectId: "steps", sessionId: "s1", tool: "" })).count,
      0n,
      "an empty tool name names no tool, as the field's comment says",
    );
    assert.equal((await s.steps.getLastStep({ projectId: "steps", sessionId: "s1" })).step?.outcome, "failure");
    const sessions = await s.steps.listSessions({ projectId: "steps" });
    assert.deepEqual(
      sessions.sessions.map((x) => [x.sessionId, x.stepCount]),
      [
        ["s1", 2n],
        ["s2", 1n],
      ],
    );
  });

  it("rejects a step outside the vocabulary naming the field, and a failure without a category", async () => {
    await expectError(
      s.steps.recordStep({ projectId: "steps", step: step("s3", "Grep", { actor: "robot" }) }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "step.actor",
    );
    await expectError(
      s.steps.recordStep({ projectId: "steps", step: step("s3", "Grep", { outcome: "failure" }) }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "step.error_category",
    );
    await expectError(
      s.steps.recordStep({ projectId: "steps", step: step("s3", "Grep", { errorCategory: "bogus" }) }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "step.error_category",
    );
    await expectError(
      s.steps.recordStep({ projectId: "steps", step: step("bad session", "Grep") }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "step.session_id",
    );
    await expectError(s.steps.getLastStep({ projectId: "steps", sessionId: "s3" }), status.NOT_FOUND, "STEP_NOT_FOUND", "session_id");
  });

  it("refuses a step whose tool or session id looks like a secret, naming the field, and journals nothing", async () => {
    const before = (await s.state.getGeneration({ projectId: "steps" })).header?.generation;
    await expectError(
      s.steps.recordStep({ projectId: "steps", step: step("s4", `sk_test_${"9".repeat(26)}`) }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "step.tool",
    );
    assert.equal((await s.state.getGeneration({ projectId: "steps" })).header?.generation, before, "generation unchanged");
    await expectError(s.steps.getLastStep({ projectId: "steps", sessionId: "s4" }), status.NOT_FOUND, "STEP_NOT_FOUND");
    await expectError(
      s.steps.recordStep({ projectId: "steps", step: step(`AKIA${"Q".repeat(16)}`, "Grep") }),
      status.INVALID_ARGUMENT,
      "INVALID_ARGUMENT",
      "step.session_id",
    );
    assert.equal(
      (await s.state.getGeneration({ projectId: "steps" })).header?.generation,
      before,
      "a secret-looking session id changes nothing either",
    );
  });

  it("keeps a step's model, tool parameters and hints in the metadata it was given, not in fields of their own", async () => {
    const metadata = { model: "small-router", "tool_params.target": "pkg/api", "tool_params.limit": "20", next_hint: "read callers" };
    await s.steps.recordStep({ projectId: "steps", step: step("s5", "find_callers", { metadata }) });
    const [stored] = (await s.steps.listSteps({ projectId: "steps", sessionId: "s5" })).steps;
    assert.deepEqual({ ...stored?.metadata }, metadata, "the metadata comes back as sent");
  });

  it("ends a session, removing its steps, as one change", async () => {
    await s.steps.recordStep({ projectId: "steps", step: step("s4", "Grep") });
    const before = (await s.state.getGeneration({ projectId: "steps" })).header?.generation ?? 0n;
    const ended = await s.steps.endSession({ projectId: "steps", sessionId: "s4" });
    assert.equal(ended.stepsRemoved, 1n);
    assert.equal(ended.header?.generation, before + 1n);
    await expectError(s.steps.getLastStep({ projectId: "steps", sessionId: "s4" }), status.NOT_FOUND, "STEP_NOT_FOUND");
  });
});
