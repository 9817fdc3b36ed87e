import { ErrorTally, PostToolTally } from "../corpus/census.js";
import { sortedRecord } from "../corpus/order.js";
import { criticalPath, type TaskSplit } from "../critical-path.js";
import { EMPTY_META } from "../decode/meta.js";
import type { RolloutMeta, RolloutRecord } from "../decode/record.js";
import { BehaviorTally } from "../detectors/behavior.js";
import { HealthFold } from "../health/session.js";
import { foldEventOf } from "../lifecycle/events.js";
import { LifecycleFold } from "../lifecycle/fold.js";
import { UsageFold } from "../usage/fold.js";
import { countsAsFailure, type ToolClass } from "../vocabulary.js";
import { Attribution } from "./attribution.js";
import { CallJoin, type CallRow, type LiveCall } from "./calls.js";
import { PostToolFold, type PostToolSpan } from "./post-tool.js";
import { TaskWindow } from "./time-split.js";
import type { CallOutcome, FoldedRollout, TaskAnalytics, ToolTotals } from "./types.js";

/** A listed span, whose band is filled in when its reading comes. */
type Listed = Omit<PostToolSpan, "band"> & { band: PostToolSpan["band"] };

/** Options of a streaming fold. */
export interface RecordFoldOptions {
  /** Whether user message items open implicit turns (only when the rollout writes no user_message events). */
  readonly itemsSpeak: boolean;
  /** Most per-call outcomes and post-tool spans listed; every call is still counted. */
  readonly maxListed: number;
  /** Whether post-tool gaps are kept as samples for the corpus partial (one number per result). */
  readonly postToolSamples: boolean;
}

/** Inputs of a fold's end. */
export interface FinishInput {
  readonly meta: RolloutMeta | null;
  /** Whether the rollout may still be written; decided by the caller. */
  readonly fresh: boolean;
}

interface TaskState {
  readonly window: TaskWindow;
  readonly classes: Map<ToolClass, number>;
  ttft: number | null;
}

function bump<K>(m: Map<K, number>, key: K): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}

/**
 * One rollout folded record by record: the lifecycle, each record placed in its task, calls joined
 * and classified, the per-task time split, TTFT, post-tool spans, detectors, health, error and
 * usage facts. It holds per task one row of fields, and otherwise only what is still open: calls
 * waiting for an output, time booked while they are out, records after a compaction that may
 * open a turn, results waiting for the model's next record and spans waiting for a token reading.
 */
export class RecordFold {
  readonly #options: RecordFoldOptions;
  readonly #lifecycle = new LifecycleFold();
  readonly #attribution: Attribution;
  readonly #join: CallJoin;
  readonly #postTool: PostToolFold;
  readonly #tasks: TaskState[] = [];
  readonly #behavior = new BehaviorTally();
  readonly #health = new HealthFold();
  readonly #errors = new ErrorTally();
  readonly #postToolTally = new PostToolTally();
  readonly #usage = new UsageFold();
  readonly #listed: LiveCall[] = [];
  readonly #spans: PostToolSpan[] = [];
  // Listed spans still waiting for their band.
  #unbandedListed: Listed[] = [];
  readonly #classes = new Map<string, number>();
  readonly #reasons = new Map<string, number>();
  readonly #byTool = new Map<string, { calls: number; failures: number; timeouts: number; ms: number }>();
  // A completion's TTFT names a turn not started yet: it goes to that turn if it starts.
  readonly #ttftById = new Map<string, number>();
  #seenRows = 0;
  #lastTask = -1;
  #seq = 0;
  #goalContinuations = 0;
  readonly #raw = { started: 0, complete: 0, aborted: 0 };

  /** A fold with the given reading of user items and listing limit. */
  constructor(options: RecordFoldOptions) {
    this.#options = options;
    this.#attribution = new Attribution(this.#lifecycle, (r, seq, task) => this.#placed(r, seq, task));
    this.#join = new CallJoin((call, row) => this.#closed(call, row));
    this.#postTool = new PostToolFold({
      closed: (span) => {
        if (options.postToolSamples) this.#postToolTally.closed(span);
        if (this.#spans.length >= this.#options.maxListed) return;
        const listed: Listed = { ...span, band: "unobserved" };
        this.#spans.push(listed);
        this.#unbandedListed.push(listed);
      },
      banded: (band) => {
        if (options.postToolSamples) this.#postToolTally.banded(band);
        for (const listed of this.#unbandedListed) listed.band = band;
        this.#unbandedListed = [];
      },
    });
  }

  /** Whether the lifecycle has seen a start (from then on no turn is implicit). */
  get explicit(): boolean {
    return this.#lifecycle.explicit;
  }

  /** Takes the next record in file order. */
  push(r: RolloutRecord): void {
    // The rollout's session_meta tells the usage fold whether it is a child; nothing else reads it.
    if (r.kind === "session_meta") {
      this.#usage.push(r);
      return;
    }
    const seq = this.#seq++;
    if (r.kind === "task_started") this.#raw.started += 1;
    else if (r.kind === "task_complete") this.#raw.complete += 1;
    else if (r.kind === "turn_aborted") this.#raw.aborted += 1;
    else if (r.kind === "goal_continuation") this.#goalContinuations += 1;
    const readsItem = r.kind !== "user_message" || r.source === "event" || this.#options.itemsSpeak;
    const e = readsItem ? foldEventOf(r, seq) : null;
    if (e !== null) this.#lifecycle.push(e);
    this.#health.record(r);
    this.#errors.push(r);
    this.#usage.push(r);
    this.#attribution.take(r, seq);
  }

  #task(i: number): TaskState {
    let t = this.#tasks[i];
    if (t === undefined) {
      const row = this.#lifecycle.rows[i];
      // A turn opened by the model's own output has no request to time a first token from.
      const window = new TaskWindow(row?.startMs ?? null, row?.asked ?? false);
      t = { window, classes: new Map(), ttft: null };
      this.#tasks[i] = t;
    }
    return t;
  }

  // A record in its task, in file order.
  #placed(r: RolloutRecord, seq: number, task: number): void {
    const lc = this.#lifecycle;
    this.#claimTtfts();
    if (task !== this.#lastTask) {
      this.#join.leave(this.#lastTask);
      this.#lastTask = task;
    }
    const state = task >= 0 ? this.#task(task) : undefined;
    const row = lc.rows[task];
    state?.window.record(r, { endMs: row?.endMs ?? null, settled: lc.endSettled(task) });
    let answered: LiveCall | undefined;
    if (r.kind === "tool_call") {
      const call = this.#join.call(r, seq, task);
      if (this.#listed.length < this.#options.maxListed) this.#listed.push(call);
      if (call.state === "open") state?.window.opened(call);
    } else if (r.kind === "tool_output") {
      answered = this.#join.output(r, seq, task);
      if (answered !== undefined) state?.window.answered(answered);
    }
    this.#postTool.push(r, answered);
    this.#health.placed(r, task, row?.turnId ?? "");
    if (r.kind === "task_complete" && r.ttftMs !== null) this.#ttft(r.turnId, r.ttftMs, task);
  }

  // A keyed completion belongs to the turn it names, which need not be the one it sits in (a
  // late completion of a superseded turn); an unkeyed one to the turn it sits in. The first wins.
  #ttft(turnId: string, ms: number, task: number): void {
    const target = turnId === "" ? task : (this.#lifecycle.index.get(turnId) ?? -1);
    if (target >= 0) {
      const t = this.#task(target);
      t.ttft ??= ms;
    } else if (turnId !== "" && !this.#ttftById.has(turnId)) this.#ttftById.set(turnId, ms);
  }

  #claimTtfts(): void {
    const rows = this.#lifecycle.rows;
    for (; this.#seenRows < rows.length; this.#seenRows += 1) {
      const row = rows[this.#seenRows];
      if (row === undefined || row.implicit || this.#ttftById.size === 0) continue;
      const ms = this.#ttftById.get(row.turnId);
      if (ms === undefined) continue;
      this.#ttftById.delete(row.turnId);
      this.#task(this.#seenRows).ttft ??= ms;
    }
  }

  #closed(call: LiveCall, row: CallRow): void {
    if (call.task >= 0) bump(this.#task(call.task).classes, row.cls);
    bump(this.#classes, row.cls);
    bump(this.#reasons, `${row.cls}:${row.reason}`);
    const agg = this.#byTool.get(row.tool) ?? { calls: 0, failures: 0, timeouts: 0, ms: 0 };
    agg.calls += 1;
    agg.ms += row.spanMs;
    if (row.cls === "timeout") agg.timeouts += 1;
    else if (countsAsFailure(row.cls)) agg.failures += 1;
    this.#byTool.set(row.tool, agg);
    this.#behavior.call(row);
  }

  /** Ends the rollout and returns everything folded. */
  finish(input: FinishInput): FoldedRollout {
    const lifecycle = this.#lifecycle.finish(input.fresh);
    this.#attribution.flush();
    const tailSkipped = this.#postTool.finish();
    if (this.#options.postToolSamples) this.#postToolTally.tail(tailSkipped);
    this.#claimTtfts();
    this.#join.finish((task) => lifecycle.tasks[task]?.outcome);
    const splits: TaskSplit[] = lifecycle.tasks.map((t, i) => {
      const split = this.#task(i).window.finish(t.endMs);
      this.#behavior.split(split);
      return split;
    });
    const tasks: TaskAnalytics[] = lifecycle.tasks.map((t, i) => {
      const s = splits[i] as TaskSplit;
      const state = this.#task(i);
      const first = s.firstModelMs;
      return {
        turnId: t.turnId,
        outcome: t.outcome,
        provenance: t.provenance,
        wallMs: s.wallMs,
        recordedMs: t.provenance === "observed" ? t.durationMs : null,
        ttftMs: state.ttft ?? first ?? -1,
        ttftSource: state.ttft !== null ? "producer" : first !== null ? "first_model_record" : null,
        toolMs: s.toolMs,
        waitMs: s.waitMs,
        modelMs: s.modelMs,
        idleMs: s.idleMs,
        toolCalls: t.toolCalls,
        compactions: s.compactions,
        idleGaps: s.idleGaps,
        classes: sortedRecord(state.classes),
        critical: criticalPath(s),
        trailingEmptyAbort: t.trailingEmptyAbort,
        rolledBack: t.rolledBack,
        implicit: t.implicit,
      };
    });
    const outcomes: CallOutcome[] = this.#listed.map((c) => ({
      turnId: lifecycle.tasks[c.task]?.turnId ?? "",
      tool: c.tool,
      cls: c.row?.cls ?? "missing_result",
      reason: c.row?.reason ?? "",
      confidence: c.row?.confidence ?? "inferred",
      spanMs: c.row?.spanMs ?? 0,
      sig: c.row?.sig ?? "",
    }));
    const byTool: Record<string, ToolTotals> = sortedRecord(this.#byTool);
    return {
      analytics: {
        meta: input.meta ?? EMPTY_META,
        lifecycle,
        tasks,
        calls: this.#join.calls,
        outcomes,
        outcomesTruncated: this.#join.calls > outcomes.length,
        callTotals: { classes: sortedRecord(this.#classes), reasons: sortedRecord(this.#reasons), byTool },
        unmatchedOutputs: this.#join.unmatchedOutputs,
        goalContinuations: this.#goalContinuations,
        behavior: this.#behavior.result(),
        postTool: this.#spans,
        substantiveCompleted: lifecycle.substantiveCompleted,
        completedWithTrailingAbort: lifecycle.completedWithTrailingAbort,
      },
      raw: { ...this.#raw },
      health: this.#health.facts(lifecycle.tasks.length),
      errors: this.#errors.facts(),
      postTool: this.#postToolTally.result(),
      usage: this.#usage,
    };
  }
}
