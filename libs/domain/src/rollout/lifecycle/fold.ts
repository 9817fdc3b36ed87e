import type { TurnErrorClass } from "../turn-error.js";
import {
  IMPLICIT_TURN_PREFIX,
  REASON_ERROR_PREFIX,
  REASON_FRESH,
  REASON_IMPLICIT_NEXT_TURN,
  REASON_STALE,
  REASON_SUPERSEDED_PREFIX,
  TRAILING_ABORT_MAX_MS,
} from "../vocabulary.js";
import type { Outcome, Provenance } from "../vocabulary.js";
import type { FoldEvent, FoldOptions, FoldReport, FoldedTask } from "./types.js";

/** A task row while the fold runs; read-only outside the fold. */
export interface Row {
  turnId: string;
  startedAt: string;
  startMs: number | null;
  endedAt: string;
  endMs: number | null;
  outcome: Outcome | null;
  provenance: Provenance;
  reason: string;
  durationMs: number | null;
  toolCalls: number;
  observed: boolean;
  repaired: boolean;
  rolledBack: boolean;
  implicit: boolean;
  /** The turn began with a request (a written start or user input), not with the model's own output. */
  asked: boolean;
  openedAt: number | null;
  errorClass: TurnErrorClass | null;
  /** An errored task's own terminal has arrived (a later one is a second terminal). */
  confirmed: boolean;
}

/** Duration of a task when known: the producer's figure, else its timestamps; null otherwise. */
export function knownDurationMs(task: Pick<FoldedTask, "durationMs" | "startMs" | "endMs">): number | null {
  if (task.durationMs !== null && task.durationMs > 0) return task.durationMs;
  if (task.startMs !== null && task.endMs !== null && task.endMs >= task.startMs) return task.endMs - task.startMs;
  return task.durationMs;
}

// One rule for both lifecycle and analytics: a short abort right after a completed task,
// with no tool call, and with a duration actually known (an absent one proves nothing). A turn
// ended by an error failed; it is not a stray abort.
function isTrailingEmptyAbort(prev: Row | undefined, row: Row): boolean {
  if (prev?.outcome !== "complete" || row.outcome !== "aborted" || row.toolCalls > 0 || row.errorClass !== null) return false;
  const ms = knownDurationMs(row);
  return ms !== null && ms <= TRAILING_ABORT_MAX_MS;
}

function newRow(turnId: string, e: FoldEvent): Row {
  return {
    turnId,
    startedAt: e.timestamp,
    startMs: e.tsMs,
    endedAt: "",
    endMs: null,
    outcome: null,
    provenance: "synthesized",
    reason: "",
    durationMs: null,
    toolCalls: 0,
    observed: false,
    repaired: false,
    rolledBack: false,
    implicit: false,
    asked: true,
    openedAt: null,
    errorClass: null,
    confirmed: false,
  };
}

/**
 * The lifecycle fold as a state machine: events are pushed in file order and the rows stay
 * readable while it runs, so later stages can place each record in its task as it streams.
 */
export class LifecycleFold {
  readonly rows: Row[] = [];
  readonly index = new Map<string, number>();
  readonly orphans: FoldEvent[] = [];
  readonly reused: string[] = [];
  readonly multiplyTerminated: string[] = [];
  /** The task open for a terminal, -1 for none. */
  active = -1;
  /** The task records are positioned in (it may already be closed), -1 for none. */
  current = -1;
  /** Whether the current task still holds the timeline (an observed completion releases it). */
  held = false;
  /** A start has been written: the producer persists turn boundaries, so no more implicit turns. */
  explicit = false;
  /** A compaction seen with no turn held; it becomes part of the next implicit turn. */
  pending: FoldEvent | null = null;
  pendingCalls = 0;
  implicitCount = 0;

  start(e: FoldEvent): void {
    if (e.turnId === "") {
      this.orphans.push(e);
      return;
    }
    const seen = this.index.get(e.turnId);
    if (seen !== undefined) {
      this.reused.push(e.turnId);
      this.current = seen;
      return;
    }
    const open = this.rows[this.active];
    if (open?.implicit === true) this.closeImplicit(open);
    else if (open !== undefined) {
      Object.assign<Row, Partial<Row>>(open, {
        outcome: "superseded",
        provenance: "synthesized",
        endedAt: e.timestamp,
        endMs: e.tsMs,
        reason: `${REASON_SUPERSEDED_PREFIX}${e.turnId}`,
      });
    }
    this.explicit = true;
    this.dropPending();
    this.open(newRow(e.turnId, e));
    this.index.set(e.turnId, this.active);
  }

  private open(row: Row): void {
    this.rows.push(row);
    this.active = this.rows.length - 1;
    this.current = this.active;
    this.held = true;
  }

  // The successor only proves the turn was over; its time includes the user's pause, so the
  // end stays unset and the task's window ends at the last record it wrote.
  private closeImplicit(row: Row): void {
    Object.assign<Row, Partial<Row>>(row, { outcome: "complete", provenance: "synthesized", reason: REASON_IMPLICIT_NEXT_TURN });
  }

  private openImplicit(at: FoldEvent, asked: boolean): void {
    this.implicitCount += 1;
    this.open({
      ...newRow(`${IMPLICIT_TURN_PREFIX}${this.implicitCount}`, at),
      implicit: true,
      asked,
      openedAt: at.seq ?? null,
      toolCalls: this.pendingCalls,
    });
    this.pending = null;
    this.pendingCalls = 0;
  }

  /** User input: closes an open implicit turn and opens the next one. */
  userTurn(e: FoldEvent): void {
    if (this.explicit) return;
    const held = this.held ? this.rows[this.current] : undefined;
    if (held !== undefined && this.current === this.active) this.closeImplicit(held);
    this.openImplicit(this.pending ?? e, true);
  }

  /** Agent output: opens an implicit turn only when no turn holds the timeline. */
  agentOutput(e: FoldEvent): void {
    if (this.explicit || this.held) return;
    this.openImplicit(this.pending ?? e, false);
  }

  compacted(e: FoldEvent): void {
    if (!this.explicit && !this.held) this.pending ??= e;
  }

  // Calls are counted where attribution places them: after a pending compaction they belong
  // to the turn it may open, otherwise to the current task.
  toolCall(): void {
    if (this.pending !== null) this.pendingCalls += 1;
    else {
      const row = this.rows[this.current];
      if (row !== undefined) row.toolCalls += 1;
    }
  }

  /** A compaction that opened no turn: its calls stay with the current task. */
  dropPending(): void {
    const row = this.rows[this.current];
    if (row !== undefined) row.toolCalls += this.pendingCalls;
    this.pending = null;
    this.pendingCalls = 0;
  }

  private unkeyedTarget(): number | undefined {
    if (this.active >= 0) return this.active;
    const row = this.rows[this.current];
    return row !== undefined && row.errorClass !== null && !row.confirmed ? this.current : undefined;
  }

  terminal(e: FoldEvent): void {
    const target = e.turnId !== "" ? this.index.get(e.turnId) : this.unkeyedTarget();
    const row = target === undefined ? undefined : this.rows[target];
    if (target === undefined || row === undefined) {
      this.orphans.push(e);
      return;
    }
    if (row.errorClass !== null && !row.confirmed) {
      // The failed turn's own closing record: it dates the end, the error keeps the outcome.
      Object.assign<Row, Partial<Row>>(row, {
        endedAt: e.timestamp,
        endMs: e.tsMs,
        durationMs: e.durationMs ?? row.durationMs,
        confirmed: true,
      });
      return;
    }
    if (row.observed) {
      this.multiplyTerminated.push(row.turnId);
      return;
    }
    Object.assign<Row, Partial<Row>>(row, {
      outcome: e.kind === "task_complete" ? "complete" : "aborted",
      provenance: "observed",
      endedAt: e.timestamp,
      endMs: e.tsMs,
      reason: e.reason,
      durationMs: e.durationMs,
      observed: true,
      repaired: row.outcome === "superseded",
    });
    if (target === this.active) this.active = -1;
    // A completion releases the timeline; an abort leaves the turn in place until the next one.
    if (target === this.current && e.kind === "task_complete") this.held = false;
  }

  /** An error that ends the turn: the open task is aborted, observed, with the error's class. */
  error(e: FoldEvent): void {
    const row = this.rows[this.active];
    if (row === undefined || e.errorClass === undefined) return;
    Object.assign<Row, Partial<Row>>(row, {
      outcome: "aborted",
      provenance: "observed",
      endedAt: e.timestamp,
      endMs: e.tsMs,
      reason: `${REASON_ERROR_PREFIX}${e.errorClass}`,
      observed: true,
      errorClass: e.errorClass,
    });
    this.active = -1;
  }

  rollBack(n: number): void {
    let left = n;
    for (let i = this.rows.length - 1; i >= 0 && left > 0; i -= 1) {
      const row = this.rows[i];
      if (row === undefined || i === this.active || row.rolledBack) continue;
      row.rolledBack = true;
      left -= 1;
    }
  }

  /** Takes the next event. */
  push(e: FoldEvent): void {
    apply(this, e);
  }

  /** Whether a compaction waits to learn if it opens the next implicit turn. */
  get compactionPending(): boolean {
    return this.pending !== null;
  }

  /** Whether a row's end can no longer move: it was observed, and an error's own terminal came. */
  endSettled(i: number): boolean {
    const row = this.rows[i];
    return row?.observed === true && (row.errorClass === null || row.confirmed);
  }

  /** Closes the open task (live when the rollout may still be written) and returns the report. */
  finish(fresh: boolean): FoldReport {
    this.close(fresh);
    return reportOf(this);
  }

  private close(fresh: boolean): void {
    this.dropPending();
    const open = this.rows[this.active];
    if (open === undefined) return;
    open.outcome = fresh ? "live" : "process_death";
    open.provenance = "synthesized";
    open.reason = fresh ? REASON_FRESH : REASON_STALE;
  }
}

function apply(f: LifecycleFold, e: FoldEvent): void {
  switch (e.kind) {
    case "task_started":
      f.start(e);
      break;
    case "task_complete":
    case "turn_aborted":
      f.terminal(e);
      break;
    case "thread_rolled_back":
      f.rollBack(e.numTurns ?? 0);
      break;
    case "tool_call":
      f.toolCall();
      break;
    case "user_turn":
      f.userTurn(e);
      break;
    case "agent_output":
      f.agentOutput(e);
      break;
    case "compacted":
      f.compacted(e);
      break;
    case "turn_error":
      f.error(e);
      break;
  }
}

function reportOf(f: LifecycleFold): FoldReport {
  const tasks: FoldedTask[] = f.rows.map((row, i) => ({
    turnId: row.turnId,
    startedAt: row.startedAt,
    startMs: row.startMs,
    endedAt: row.endedAt,
    endMs: row.endMs,
    // Every row is closed by a start, a terminal, an error, the next turn or finish(); the fallback is unreachable.
    outcome: row.outcome ?? "process_death",
    provenance: row.provenance,
    reason: row.reason,
    durationMs: row.durationMs,
    toolCalls: row.toolCalls,
    repaired: row.repaired,
    rolledBack: row.rolledBack,
    trailingEmptyAbort: i > 0 && isTrailingEmptyAbort(f.rows[i - 1], row),
    implicit: row.implicit,
    openedAt: row.openedAt,
    errorClass: row.errorClass,
  }));
  const last = tasks[tasks.length - 1];
  return {
    tasks,
    orphans: f.orphans,
    reused: f.reused,
    multiplyTerminated: f.multiplyTerminated,
    substantiveCompleted: tasks.some((t) => t.outcome === "complete"),
    completedWithTrailingAbort: tasks.length > 1 && last !== undefined && last.trailingEmptyAbort,
  };
}

/** Folds lifecycle events into tasks, each with exactly one typed terminal. */
export function fold(events: readonly FoldEvent[], options: FoldOptions): FoldReport {
  const f = new LifecycleFold();
  for (const e of events) f.push(e);
  return f.finish(options.fresh);
}
