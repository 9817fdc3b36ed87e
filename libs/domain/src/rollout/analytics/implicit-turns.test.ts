import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeRollout, foldRecords } from "./analyze.js";
import { collectRollout } from "../decode/collect.js";
import { sessionHealth } from "../health/session.js";
import { rolloutAnalyticsJson } from "../report/rollout-report.js";
import { abortLine, callLine, legacyLines, messageLine, metaLine, outputLine, unifiedOutput, userLine } from "../testing/lines.js";

const user = (text: string) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const shell = (callId: string, cmd: string) => ({
  type: "function_call",
  name: "shell",
  arguments: JSON.stringify({ command: ["bash", "-lc", cmd] }),
  call_id: callId,
});
const result = (callId: string, exit: number) => ({
  type: "function_call_output",
  call_id: callId,
  output: JSON.stringify({ output: "x", metadata: { exit_code: exit, duration_seconds: 0.1 } }),
});

test("in a pre-wrapper rollout, calls belong to the implicit turn that was open instead of no task", () => {
  const d = collectRollout(
    legacyLines([
      user("<environment_context>cwd</environment_context>"),
      user("list the files"),
      { type: "reasoning", summary: [] },
      shell("c1", "ls"),
      result("c1", 0),
      user("now build it"),
      shell("c2", "make"),
    ]),
  );
  const a = analyzeRollout({ meta: d.meta, records: d.records, fresh: false });
  assert.deepEqual(
    a.tasks.map((t) => [t.turnId, t.outcome, t.provenance, t.implicit, t.toolCalls]),
    [
      ["implicit:1", "complete", "synthesized", true, 1],
      ["implicit:2", "process_death", "synthesized", true, 1],
    ],
    "two user turns; injected context opened none",
  );
  assert.deepEqual(
    a.outcomes.map((o) => `${o.turnId} ${o.cls}/${o.reason}`),
    ["implicit:1 ok/exit_0", "implicit:2 interrupted/task_boundary_process_death"],
    "no call is left without an owning task",
  );
  const json = rolloutAnalyticsJson(a) as { tasks: { implicit?: boolean }[] };
  assert.equal(json.tasks[0]?.implicit, true, "implicit is visible in the JSON");
});

test("health sees implicit turns: completed zero-tool ones are classified, the open tail is unterminated", () => {
  const d = collectRollout([
    metaLine("m", { cli_version: "0.40.0" }),
    userLine(0),
    messageLine(1, "Here is the answer", "final_answer"),
    userLine(5),
    callLine(6, "c1", "exec_command", { cmd: "ls" }),
    outputLine(7, "c1", unifiedOutput(0)),
    abortLine(8, undefined),
    userLine(9),
    messageLine(10, "working on it"),
  ]);
  const h = sessionHealth("s", foldRecords({ meta: d.meta, records: d.records, fresh: false }));
  assert.deepEqual([h.turns, h.toolCalls, h.aborted, h.unterminated], [3, 1, 1, 1], "three implicit turns");
  assert.equal(h.zeroTool.talk_only, 1, "the completed turn without a call is zero-tool");
});

test("an implicit turn opened by the model's own output has no first-token time; one opened by user input has", () => {
  const d = collectRollout([
    metaLine("m", { cli_version: "0.40.0" }),
    messageLine(1, "resuming the work"),
    callLine(3, "c1", "exec_command", { cmd: "ls" }),
    outputLine(4, "c1", unifiedOutput(0)),
    userLine(10),
    callLine(12, "c2", "exec_command", { cmd: "make" }),
    outputLine(13, "c2", unifiedOutput(0)),
  ]);
  const a = analyzeRollout({ meta: d.meta, records: d.records, fresh: false });
  assert.deepEqual(
    a.tasks.map((t) => [t.turnId, t.ttftMs, t.ttftSource]),
    [
      ["implicit:1", -1, null],
      ["implicit:2", 2000, "first_model_record"],
    ],
    "the first turn's start is its own first output, so 0 ms would be no measurement",
  );
});
