import type { RolloutRecord } from "../decode/record.js";
import type { Outcome } from "../vocabulary.js";
import { classifyOutcome, type ToolOutcome } from "../outcome.js";
import { signatureOf } from "../signature.js";
import type { Confidence, ToolClass } from "../vocabulary.js";

/** What a tool call says of itself, known as soon as it is read. */
export interface CallFacts {
  /** Owning task, -1 for none. */
  readonly task: number;
  readonly callId: string;
  readonly tool: string;
  readonly head: string;
  readonly targets: readonly string[];
  /** True for calls that only wait (sleep, wait, stdin polls). */
  readonly waits: boolean;
  readonly sleepPoll: boolean;
}

/** One tool call joined to its result and classified. */
export interface CallRow extends CallFacts {
  readonly cls: ToolClass;
  readonly reason: string;
  readonly confidence: Confidence;
  readonly spanMs: number;
  readonly sig: string;
}

/** A call while the fold runs: open until its output arrives, dead once none can. */
export interface LiveCall extends CallFacts {
  /** Order of the call among all calls, for keys. */
  readonly serial: number;
  /** Position of the call record in the rollout. */
  readonly seq: number;
  readonly tsMs: number | null;
  state: "open" | "answered" | "dead";
  /** Set when the call closes. */
  row: CallRow | null;
}

type ToolCallRecord = Extract<RolloutRecord, { kind: "tool_call" }>;
type ToolOutputRecord = Extract<RolloutRecord, { kind: "tool_output" }>;

// The first word must end at whitespace, `;` or the end: `sleep-foo` is not a sleep.
const WAIT_HEAD = /^\s*(?:wait|sleep|start-sleep)(?=\s|;|$)/i;
const SLEEP_HEAD = /^\s*(?:sleep|start-sleep)(?=\s|;|$)/i;

interface TaskCalls {
  /** Calls waiting for an output, by call id, oldest first. */
  readonly queues: Map<string, LiveCall[]>;
  /** Calls with no id, which nothing can answer, waiting for the facts that classify them. */
  readonly unanswerable: LiveCall[];
  lastCall: number;
  lastOutput: number;
}

/** Classification of a call that got no result, from what its task did after it and how it ended. */
function missingResult(call: LiveCall, calls: TaskCalls, owner: Outcome | undefined): ToolOutcome {
  if (owner === undefined) return { cls: "missing_result", reason: "no_owning_task", confidence: "inferred" };
  // Only a call the model moved past was dropped; one still open at the boundary was cut by it.
  // Later evidence is checked before the completed boundary, in the reference's order.
  if (calls.lastCall > call.seq) {
    const laterOutput = calls.lastOutput > call.seq;
    return { cls: "missing_result", reason: laterOutput ? "later_output_in_task" : "later_call_in_task", confidence: "observed" };
  }
  if (owner === "complete") return { cls: "missing_result", reason: "task_completed_without_result", confidence: "observed" };
  if (owner === "live") return { cls: "live_tail", reason: "rollout_fresh_call_may_still_run", confidence: "inferred" };
  return { cls: "interrupted", reason: `task_boundary_${owner}`, confidence: "inferred" };
}

function closeRow(call: LiveCall, typed: ToolOutcome, spanMs: number): CallRow {
  return {
    task: call.task,
    callId: call.callId,
    tool: call.tool,
    head: call.head,
    targets: call.targets,
    waits: call.waits,
    sleepPoll: call.sleepPoll,
    cls: typed.cls,
    reason: typed.reason,
    confidence: typed.confidence,
    spanMs,
    sig: signatureOf(call.tool, call.head),
  };
}

/**
 * Joins each call to the first later output with its id in the same task, as records stream in.
 * A joined call is classified at its output; one left without is classified when the rollout
 * ends, from its task's outcome. Only calls still waiting for an output are held.
 */
export class CallJoin {
  readonly #tasks = new Map<number, TaskCalls>();
  readonly #onClose: (call: LiveCall, row: CallRow) => void;
  #serial = 0;
  /** Calls seen. */
  calls = 0;
  /** Outputs whose call id matched no call in their task. */
  unmatchedOutputs = 0;

  /** `onClose` hears every call once, when its class is known. */
  constructor(onClose: (call: LiveCall, row: CallRow) => void) {
    this.#onClose = onClose;
  }

  #task(task: number): TaskCalls {
    let t = this.#tasks.get(task);
    if (t === undefined) {
      t = { queues: new Map(), unanswerable: [], lastCall: -1, lastOutput: -1 };
      this.#tasks.set(task, t);
    }
    return t;
  }

  /** A call record in `task`; the call is open when an output can still answer it. */
  call(r: ToolCallRecord, seq: number, task: number): LiveCall {
    const t = this.#task(task);
    t.lastCall = seq;
    this.calls += 1;
    const call: LiveCall = {
      serial: this.#serial++,
      seq,
      task,
      callId: r.callId,
      tool: r.tool,
      head: r.head,
      targets: r.targets,
      waits: r.stdinPoll || WAIT_HEAD.test(r.head),
      sleepPoll: SLEEP_HEAD.test(r.head),
      tsMs: r.tsMs,
      state: r.callId === "" ? "dead" : "open",
      row: null,
    };
    this.#settle(t);
    // Outside any task a call without a result has no owner, whatever follows.
    if (call.state === "dead" && task < 0) this.#close(call, missingResult(call, t, undefined), 0);
    else if (call.state === "dead") t.unanswerable.push(call);
    else {
      const queue = t.queues.get(r.callId);
      if (queue === undefined) t.queues.set(r.callId, [call]);
      else queue.push(call);
    }
    return call;
  }

  /** An output record in `task`; returns the call it answers, if any. */
  output(r: ToolOutputRecord, seq: number, task: number): LiveCall | undefined {
    const t = this.#task(task);
    t.lastOutput = seq;
    this.#settle(t);
    const queue = r.callId === "" ? undefined : t.queues.get(r.callId);
    const call = queue?.shift();
    if (queue !== undefined && queue.length === 0) t.queues.delete(r.callId);
    if (call === undefined) {
      this.unmatchedOutputs += 1;
      return undefined;
    }
    call.state = "answered";
    const span = r.tsMs !== null && call.tsMs !== null && r.tsMs > call.tsMs ? r.tsMs - call.tsMs : 0;
    this.#close(call, classifyOutcome(call.head, r.envelope), span);
    return call;
  }

  /** The records have moved on from `task`: its bookkeeping goes unless calls there still wait. */
  leave(task: number): void {
    const t = this.#tasks.get(task);
    // Without a waiting call, its last call and output can only matter to calls not yet written,
    // which a returning task records afresh.
    if (t !== undefined && t.queues.size === 0 && t.unanswerable.length === 0) this.#tasks.delete(task);
  }

  // A call with no id is classified once its task has both a later call and a later output; the
  // list is in file order, so the settled ones are at its front.
  #settle(t: TaskCalls): void {
    const seen = Math.min(t.lastCall, t.lastOutput);
    for (let call = t.unanswerable[0]; call !== undefined && call.seq < seen; call = t.unanswerable[0]) {
      t.unanswerable.shift();
      this.#close(call, { cls: "missing_result", reason: "later_output_in_task", confidence: "observed" }, 0);
    }
  }

  #close(call: LiveCall, typed: ToolOutcome, spanMs: number): void {
    call.row = closeRow(call, typed, spanMs);
    this.#onClose(call, call.row);
  }

  /** Ends the rollout: calls still waiting are dead and classified by their task's outcome. */
  finish(outcomeOf: (task: number) => Outcome | undefined): void {
    const left: LiveCall[] = [];
    for (const t of this.#tasks.values()) {
      left.push(...t.unanswerable);
      for (const queue of t.queues.values()) left.push(...queue);
    }
    for (const call of left) call.state = "dead";
    // Closed in call order, as the batch listing reads them.
    left.sort((a, b) => a.serial - b.serial);
    for (const call of left) this.#close(call, missingResult(call, this.#task(call.task), outcomeOf(call.task)), 0);
  }
}
