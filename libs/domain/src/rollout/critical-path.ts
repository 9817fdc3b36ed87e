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
