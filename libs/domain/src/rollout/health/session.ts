import type { RolloutAnalytics } from "../analytics/types.js";
import type { RolloutRecord } from "../decode/record.js";
import { attributeRecords } from "../analytics/attribution.js";
import { ZERO_TOOL_CATEGORIES, type ZeroToolCategory } from "../zero-tool.js";

/** Structural health of one session. */
export interface SessionHealth {
  readonly session: string;
  /** Last model named by a turn_context. */
  readonly model: string;
  readonly turns: number;
  /** Every tool call: function, freeform and local shell. */
  readonly toolCalls: number;
  /** Completed turns without a tool call, by category. */
  readonly zeroTool: Readonly<Record<ZeroToolCategory, number>>;
  readonly aborted: number;
  readonly superseded: number;
  readonly unterminated: number;
  /** Context occupancy at each compaction that had a fresh reading. */
  readonly compactions: readonly number[];
}

/** Zero counts for every zero-tool category. */
export function emptyZeroTool(): Record<ZeroToolCategory, number> {
  return Object.fromEntries(ZERO_TOOL_CATEGORIES.map((c) => [c, 0])) as Record<ZeroToolCategory, number>;
}

function trailingCategories(records: readonly RolloutRecord[], analytics: RolloutAnalytics): (ZeroToolCategory | null)[] {
  const taskOf = attributeRecords(records, analytics.lifecycle);
  const final: (ZeroToolCategory | null)[] = analytics.tasks.map(() => null);
  const any: (ZeroToolCategory | null)[] = analytics.tasks.map(() => null);
  const closed = analytics.tasks.map(() => false);
  records.forEach((r, i) => {
    const t = taskOf[i] ?? -1;
    if (t < 0 || closed[t]) return;
    // A terminal closes the task it names (or, unkeyed, the task it sits in).
    const own = analytics.tasks[t]?.turnId;
    if ((r.kind === "task_complete" || r.kind === "turn_aborted") && (r.turnId === "" || r.turnId === own)) closed[t] = true;
    if (r.kind !== "agent_message") return;
    any[t] = r.category;
    // Commentary narrates work in progress; the final answer is what the turn ended on.
    if (r.phase !== "commentary") final[t] = r.category;
  });
  return final.map((c, i) => c ?? any[i] ?? null);
}

function occupancies(records: readonly RolloutRecord[]): number[] {
  const out: number[] = [];
  let last = 0;
  for (const r of records) {
    if (r.kind === "token_count" && r.inputTokens > 0) last = r.inputTokens;
    if (r.kind === "compacted" && last > 0) {
      out.push(last);
      // A reading describes one compaction; the next needs a reading of its own.
      last = 0;
    }
  }
  return out;
}

/** Health bookkeeping of one session, from its records and their analytics. */
export function sessionHealth(session: string, records: readonly RolloutRecord[], analytics: RolloutAnalytics): SessionHealth {
  const zeroTool = emptyZeroTool();
  const trailing = trailingCategories(records, analytics);
  analytics.tasks.forEach((t, i) => {
    if (t.outcome === "complete" && t.toolCalls === 0) zeroTool[trailing[i] ?? "silent"] += 1;
  });
  let model = "";
  for (const r of records) if (r.kind === "turn_context" && r.model !== "") model = r.model;
  const count = (o: string): number => analytics.tasks.filter((t) => t.outcome === o).length;
  return {
    session,
    model,
    turns: analytics.tasks.length,
    toolCalls: analytics.calls,
    zeroTool,
    aborted: count("aborted"),
    superseded: count("superseded"),
    unterminated: count("live") + count("process_death"),
    compactions: occupancies(records),
  };
}
