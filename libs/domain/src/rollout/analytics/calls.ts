import type { RolloutRecord } from "../decode/record.js";
import type { FoldReport } from "../lifecycle/types.js";
import { classifyOutcome } from "../outcome.js";
import { signatureOf } from "../signature.js";
import type { Confidence, ToolClass } from "../vocabulary.js";

/** One tool call joined to its result and classified. */
export interface CallRow {
  /** Position of the call record in the rollout. */
  readonly index: number;
  /** Owning task, -1 for none. */
  readonly task: number;
  readonly callId: string;
  readonly tool: string;
  readonly head: string;
  readonly targets: readonly string[];
  /** True for calls that only wait (sleep, wait, stdin polls). */
  readonly waits: boolean;
  readonly sleepPoll: boolean;
  readonly outputIndex: number | null;
  readonly cls: ToolClass;
  readonly reason: string;
  readonly confidence: Confidence;
  readonly spanMs: number;
  readonly sig: string;
}

/** Calls of a rollout plus outputs that matched no call. */
export interface JoinedCalls {
  readonly calls: readonly CallRow[];
  readonly unmatchedOutputs: number;
}

// The first word must end at whitespace, `;` or the end: `sleep-foo` is not a sleep.
const WAIT_HEAD = /^\s*(?:wait|sleep|start-sleep)(?=\s|;|$)/i;
const SLEEP_HEAD = /^\s*(?:sleep|start-sleep)(?=\s|;|$)/i;

interface TaskTails {
  readonly report: FoldReport;
  /** Index of the last call record in each task. */
  readonly lastCall: ReadonlyMap<number, number>;
  /** Index of the last output record in each task. */
  readonly lastOutput: ReadonlyMap<number, number>;
}

function missingResult(call: number, task: number, tails: TaskTails): Pick<CallRow, "cls" | "reason" | "confidence"> {
  const { report, lastCall, lastOutput } = tails;
  const owner = report.tasks[task];
  if (owner === undefined) return { cls: "missing_result", reason: "no_owning_task", confidence: "inferred" };
  // Only a call the model moved past was dropped; one still open at the boundary was cut by it.
  // Later evidence is checked before the completed boundary, in the reference's order.
  if ((lastCall.get(task) ?? -1) > call) {
    const laterOutput = (lastOutput.get(task) ?? -1) > call;
    return { cls: "missing_result", reason: laterOutput ? "later_output_in_task" : "later_call_in_task", confidence: "observed" };
  }
  if (owner.outcome === "complete") return { cls: "missing_result", reason: "task_completed_without_result", confidence: "observed" };
  if (owner.outcome === "live") return { cls: "live_tail", reason: "rollout_fresh_call_may_still_run", confidence: "inferred" };
  return { cls: "interrupted", reason: `task_boundary_${owner.outcome}`, confidence: "inferred" };
}

/** Joins each call to the first later output with its id in the same task, and classifies it. */
export function joinCalls(records: readonly RolloutRecord[], taskOf: Int32Array, report: FoldReport): JoinedCalls {
  const pending = new Map<string, number[]>();
  const outputOf = new Map<number, number>();
  const lastCall = new Map<number, number>();
  const lastOutput = new Map<number, number>();
  let unmatchedOutputs = 0;
  records.forEach((r, i) => {
    const task = taskOf[i] ?? -1;
    if (r.kind === "tool_call") {
      lastCall.set(task, i);
      if (r.callId === "") return;
      const key = `${task}\u0000${r.callId}`;
      const queue = pending.get(key);
      if (queue === undefined) pending.set(key, [i]);
      else queue.push(i);
    } else if (r.kind === "tool_output") {
      lastOutput.set(task, i);
      const call = r.callId === "" ? undefined : pending.get(`${task}\u0000${r.callId}`)?.shift();
      if (call === undefined) unmatchedOutputs += 1;
      else outputOf.set(call, i);
    }
  });
  const calls: CallRow[] = [];
  const tails: TaskTails = { report, lastCall, lastOutput };
  records.forEach((r, i) => {
    if (r.kind !== "tool_call") return;
    const task = taskOf[i] ?? -1;
    const outIndex = outputOf.get(i);
    const out = outIndex === undefined ? undefined : records[outIndex];
    const typed = out?.kind === "tool_output" ? classifyOutcome(r.head, out.envelope) : missingResult(i, task, tails);
    const span = out !== undefined && out.tsMs !== null && r.tsMs !== null && out.tsMs > r.tsMs ? out.tsMs - r.tsMs : 0;
    calls.push({
      index: i,
      task,
      callId: r.callId,
      tool: r.tool,
      head: r.head,
      targets: r.targets,
      waits: r.stdinPoll || WAIT_HEAD.test(r.head),
      sleepPoll: SLEEP_HEAD.test(r.head),
      outputIndex: outIndex ?? null,
      cls: typed.cls,
      reason: typed.reason,
      confidence: typed.confidence,
      spanMs: span,
      sig: signatureOf(r.tool, r.head),
    });
  });
  return { calls, unmatchedOutputs };
}
