import { REASON_FRESH, REASON_STALE, REASON_SUPERSEDED_PREFIX, TRAILING_ABORT_MAX_MS } from "../vocabulary.js";
import type { Outcome, Provenance } from "../vocabulary.js";
import type { FoldEvent, FoldOptions, FoldReport, FoldedTask } from "./types.js";

interface Row {
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
}

/** Duration of a task when known: the producer's figure, else its timestamps; null otherwise. */
export function knownDurationMs(task: Pick<FoldedTask, "durationMs" | "startMs" | "endMs">): number | null {
  if (task.durationMs !== null && task.durationMs > 0) return task.durationMs;
  if (task.startMs !== null && task.endMs !== null && task.endMs >= task.startMs) return task.endMs - task.startMs;
  return task.durationMs;
}

// One rule for both lifecycle and analytics: a short abort right after a completed task,
// with no tool call, and with a duration actually known (an absent one proves nothing).
function isTrailingEmptyAbort(prev: Row | undefined, row: Row): boolean {
  if (prev?.outcome !== "complete" || row.outcome !== "aborted" || row.toolCalls > 0) return false;
  const ms = knownDurationMs(row);
  return ms !== null && ms <= TRAILING_ABORT_MAX_MS;
}

class Folder {
  readonly rows: Row[] = [];
  readonly index = new Map<string, number>();
  readonly orphans: FoldEvent[] = [];
  readonly reused: string[] = [];
  readonly multiplyTerminated: string[] = [];
  active = -1;
  current = -1;

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
    if (open !== undefined) {
      Object.assign<Row, Partial<Row>>(open, {
        outcome: "superseded",
        provenance: "synthesized",
        endedAt: e.timestamp,
        endMs: e.tsMs,
        reason: `${REASON_SUPERSEDED_PREFIX}${e.turnId}`,
      });
    }
    this.rows.push({
      turnId: e.turnId,
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
    });
    this.active = this.rows.length - 1;
    this.current = this.active;
    this.index.set(e.turnId, this.active);
  }

  terminal(e: FoldEvent): void {
    const target = e.turnId !== "" ? this.index.get(e.turnId) : this.active >= 0 ? this.active : undefined;
    const row = target === undefined ? undefined : this.rows[target];
    if (target === undefined || row === undefined) {
      this.orphans.push(e);
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

  finish(fresh: boolean): void {
    const open = this.rows[this.active];
    if (open === undefined) return;
    open.outcome = fresh ? "live" : "process_death";
    open.provenance = "synthesized";
    open.reason = fresh ? REASON_FRESH : REASON_STALE;
  }
}

/** Folds lifecycle events into tasks, each with exactly one typed terminal. */
export function fold(events: readonly FoldEvent[], options: FoldOptions): FoldReport {
  const f = new Folder();
  for (const e of events) {
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
      case "tool_call": {
        const row = f.rows[f.current];
        if (row !== undefined) row.toolCalls += 1;
        break;
      }
    }
  }
  f.finish(options.fresh);
  const tasks: FoldedTask[] = f.rows.map((row, i) => ({
    turnId: row.turnId,
    startedAt: row.startedAt,
    startMs: row.startMs,
    endedAt: row.endedAt,
    endMs: row.endMs,
    // Every row is closed by a start, a terminal or finish(); the fallback is unreachable.
    outcome: row.outcome ?? "process_death",
    provenance: row.provenance,
    reason: row.reason,
    durationMs: row.durationMs,
    toolCalls: row.toolCalls,
    repaired: row.repaired,
    rolledBack: row.rolledBack,
    trailingEmptyAbort: i > 0 && isTrailingEmptyAbort(f.rows[i - 1], row),
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
