import type { FoldedRollout } from "../analytics/types.js";
import type { RolloutRecord } from "../decode/record.js";
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

/** What the health report reads of a rollout besides its analytics. */
export interface HealthFacts {
  /** Last model named by a turn_context. */
  readonly model: string;
  /** Per task, the category of the message it ended on (null when it wrote none). */
  readonly trailing: readonly (ZeroToolCategory | null)[];
  /**
   * Per task, the tool calls written before its terminal. A call written after the turn completed
   * sits in it by position, but the turn had already ended without it: it is still zero-tool.
   */
  readonly openCalls: readonly number[];
  /** Context occupancy at each compaction that had a fresh reading. */
  readonly compactions: readonly number[];
}

/** Zero counts for every zero-tool category. */
export function emptyZeroTool(): Record<ZeroToolCategory, number> {
  return Object.fromEntries(ZERO_TOOL_CATEGORIES.map((c) => [c, 0])) as Record<ZeroToolCategory, number>;
}

interface Trailing {
  closed: boolean;
  calls: number;
  final: ZeroToolCategory | null;
  any: ZeroToolCategory | null;
}

/** The health facts as records stream in: per task a few fields, per compaction one reading. */
export class HealthFold {
  #model = "";
  #reading = 0;
  readonly #compactions: number[] = [];
  readonly #tasks: Trailing[] = [];

  /** Takes a record in file order. */
  record(r: RolloutRecord): void {
    if (r.kind === "turn_context" && r.model !== "") this.#model = r.model;
    if (r.kind === "token_count" && r.inputTokens > 0) this.#reading = r.inputTokens;
    if (r.kind === "compacted" && this.#reading > 0) {
      this.#compactions.push(this.#reading);
      // A reading describes one compaction; the next needs a reading of its own.
      this.#reading = 0;
    }
  }

  /** Takes a record placed in task `task` whose turn id is `own`. */
  placed(r: RolloutRecord, task: number, own: string): void {
    if (task < 0) return;
    let t = this.#tasks[task];
    if (t === undefined) {
      t = { closed: false, calls: 0, final: null, any: null };
      this.#tasks[task] = t;
    }
    if (t.closed) return;
    // A terminal closes the task it names (or, unkeyed, the task it sits in).
    if ((r.kind === "task_complete" || r.kind === "turn_aborted") && (r.turnId === "" || r.turnId === own)) t.closed = true;
    if (r.kind === "tool_call") t.calls += 1;
    if (r.kind !== "agent_message") return;
    t.any = r.category;
    // Commentary narrates work in progress; the final answer is what the turn ended on.
    if (r.phase !== "commentary") t.final = r.category;
  }

  /** The facts for `tasks` tasks. */
  facts(tasks: number): HealthFacts {
    const trailing = Array.from({ length: tasks }, (_, i) => {
      const t = this.#tasks[i];
      return t === undefined ? null : (t.final ?? t.any ?? null);
    });
    const openCalls = Array.from({ length: tasks }, (_, i) => this.#tasks[i]?.calls ?? 0);
    return { model: this.#model, trailing, openCalls, compactions: [...this.#compactions] };
  }
}

/** Health bookkeeping of one session, from its folded rollout. */
export function sessionHealth(session: string, folded: FoldedRollout): SessionHealth {
  const { analytics, health } = folded;
  const zeroTool = emptyZeroTool();
  analytics.tasks.forEach((t, i) => {
    if (t.outcome === "complete" && health.openCalls[i] === 0) zeroTool[health.trailing[i] ?? "silent"] += 1;
  });
  const count = (o: string): number => analytics.tasks.filter((t) => t.outcome === o).length;
  return {
    session,
    model: health.model,
    turns: analytics.tasks.length,
    toolCalls: analytics.calls,
    zeroTool,
    aborted: count("aborted"),
    superseded: count("superseded"),
    unterminated: count("live") + count("process_death"),
    compactions: health.compactions,
  };
}
