import type { CallRow } from "./analytics/calls.js";
import type { RolloutRecord } from "./decode/record.js";
import type { FoldReport } from "./lifecycle/types.js";
import { STALL_THRESHOLD_MS } from "./vocabulary.js";

/** One category of a task's wall time (`model`, `idle`, `wait`, `tool:<name>`). */
export interface Contributor {
  readonly category: string;
  readonly ms: number;
}

/** A task's wall time split into disjoint buckets; their sum never exceeds the wall. */
export interface TaskSplit {
  /** Start of the task's window, ms. */
  readonly startMs: number | null;
  /** End of the window: the terminal, the successor's start, or the last record seen. */
  readonly endMs: number | null;
  readonly wallMs: number;
  readonly toolMs: number;
  readonly waitMs: number;
  readonly modelMs: number;
  readonly idleMs: number;
  readonly idleGaps: number;
  readonly maxGapMs: number;
  readonly byTool: Readonly<Record<string, number>>;
  readonly compactions: number;
  /** First model-emitted record after the start, ms after it; null when none. */
  readonly firstModelMs: number | null;
}

const MODEL_EMITTED = new Set(["tool_call", "agent_message", "model_output"]);

interface Window {
  start: number | null;
  end: number | null;
  cursor: number | null;
  outstanding: CallRow[];
  tool: number;
  wait: number;
  model: number;
  idle: number;
  idleGaps: number;
  maxGap: number;
  byTool: Map<string, number>;
  compactions: number;
  firstModel: number | null;
}

function book(w: Window, until: number): void {
  if (w.cursor === null) return;
  const to = w.end === null ? until : Math.min(until, w.end);
  const span = to - w.cursor;
  if (span <= 0) return;
  w.cursor = to;
  // With calls in flight the interval belongs to the earliest non-waiting call, so
  // overlapping calls share time instead of each booking their full span.
  const busy = w.outstanding.find((c) => !c.waits);
  if (busy !== undefined) {
    w.tool += span;
    w.byTool.set(busy.tool, (w.byTool.get(busy.tool) ?? 0) + span);
  } else if (w.outstanding.length > 0) {
    w.wait += span;
  } else if (span <= STALL_THRESHOLD_MS) {
    w.model += span;
  } else {
    w.model += STALL_THRESHOLD_MS;
    w.idle += span - STALL_THRESHOLD_MS;
    w.idleGaps += 1;
    w.maxGap = Math.max(w.maxGap, span);
  }
}

function isModelEmitted(r: RolloutRecord): boolean {
  return MODEL_EMITTED.has(r.kind) || (r.kind === "token_count" && r.inputTokens > 0);
}

/** What {@link splitTasks} walks: records, their tasks, the fold and the joined calls. */
export interface SplitInput {
  readonly records: readonly RolloutRecord[];
  readonly taskOf: Int32Array;
  readonly report: FoldReport;
  readonly calls: readonly CallRow[];
}

/** Splits every task's window into tool / wait / model / idle time, walking records in order. */
export function splitTasks(input: SplitInput): TaskSplit[] {
  const { records, taskOf, report, calls } = input;
  const windows: Window[] = report.tasks.map((t) => ({
    start: t.startMs,
    end: t.endMs,
    cursor: t.startMs,
    outstanding: [],
    tool: 0,
    wait: 0,
    model: 0,
    idle: 0,
    idleGaps: 0,
    maxGap: 0,
    byTool: new Map(),
    compactions: 0,
    firstModel: null,
  }));
  const callAt = new Map(calls.map((c) => [c.index, c]));
  const callOfOutput = new Map(calls.filter((c) => c.outputIndex !== null).map((c) => [c.outputIndex ?? -1, c]));
  const lastSeen = new Map<number, number>();
  records.forEach((r, i) => {
    const w = windows[taskOf[i] ?? -1];
    if (w === undefined) return;
    if (r.kind === "compacted") w.compactions += 1;
    if (r.tsMs !== null) {
      if (w.start === null) w.start = w.cursor = r.tsMs;
      const t = taskOf[i] ?? -1;
      lastSeen.set(t, Math.max(lastSeen.get(t) ?? r.tsMs, r.tsMs));
      book(w, r.tsMs);
      if (w.firstModel === null && isModelEmitted(r) && r.tsMs >= w.start) w.firstModel = r.tsMs - w.start;
    }
    // An untimed call or output still opens or closes its call where it stands in the file, so
    // an output written without a time ends its call's tool time at the last time seen before it.
    const call = callAt.get(i);
    if (call !== undefined && call.outputIndex !== null) w.outstanding.push(call);
    const answered = callOfOutput.get(i);
    if (answered !== undefined) w.outstanding = w.outstanding.filter((c) => c !== answered);
  });
  return windows.map((w, t) => {
    // An unterminated task ends at the latest thing it wrote.
    if (w.end === null) w.end = lastSeen.get(t) ?? null;
    if (w.end !== null) book(w, w.end);
    const wall = w.start !== null && w.end !== null && w.end > w.start ? w.end - w.start : 0;
    return {
      startMs: w.start,
      endMs: w.end,
      wallMs: wall,
      toolMs: w.tool,
      waitMs: w.wait,
      modelMs: w.model,
      idleMs: w.idle,
      idleGaps: w.idleGaps,
      maxGapMs: w.maxGap,
      byTool: Object.fromEntries([...w.byTool.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      compactions: w.compactions,
      firstModelMs: w.firstModel,
    };
  });
}

/** Critical-path rows of a split: non-zero buckets, largest first, ties by category. */
export function criticalPath(split: TaskSplit): Contributor[] {
  const rows: Contributor[] = [
    { category: "model", ms: split.modelMs },
    { category: "idle", ms: split.idleMs },
    { category: "wait", ms: split.waitMs },
    ...Object.entries(split.byTool).map(([tool, ms]) => ({ category: `tool:${tool}`, ms })),
  ].filter((r) => r.ms > 0);
  return rows.sort((a, b) => b.ms - a.ms || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
}
