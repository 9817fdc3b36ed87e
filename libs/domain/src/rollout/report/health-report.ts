import { interpolatedPercentile } from "../corpus/percentiles.js";
import type { CorpusPartial, HealthSessionRow } from "../corpus/types.js";
import {
  COMPACTION_BUDGET,
  HEALTH_SCHEMA,
  HIGH_ZERO_TOOL_RATE,
  NEAR_BUDGET_HIGH,
  NEAR_BUDGET_LOW,
  NEAR_WINDOW_MIN,
  PREMATURE_COMPACTION_LT,
} from "../vocabulary.js";
import type { ZeroToolCategory } from "../zero-tool.js";

/** Compaction occupancy statistics. */
export interface CompactionStatsJson {
  events: number;
  budget: number;
  occupancy_p50: number;
  occupancy_p90: number;
  near_budget_96k: number;
  near_window_200k_plus: number;
  premature_lt40k: number;
}

/** The health report, schema `fak-codex-turn-health/2`. */
export interface HealthReportJson {
  schema: string;
  sessions_with_turns: number;
  totals: {
    turns: number;
    tool_calls: number;
    tool_calls_per_turn: number;
    zero_tool_turns: number;
    zero_tool_rate: number;
    aborted?: number;
    superseded?: number;
    unterminated?: number;
  };
  zero_tool_breakdown: Record<ZeroToolCategory, number>;
  compaction: CompactionStatsJson;
  guard_refusal_loops: { session: string; model?: string; refused_turns: number; turns: number }[];
  turn_inflation: { session: string; model?: string; turns: number; tool_calls: number; zero_tool_turns: number }[];
  flags: string[];
  scanned_files?: number;
  unreadable?: number;
}

// A whole percent as a `%.0f` format prints it: an exact tie goes to the even neighbour.
function wholePercent(v: number): number {
  const floor = Math.floor(v);
  if (v - floor !== 0.5) return Math.round(v);
  return floor % 2 === 0 ? floor : floor + 1;
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Compaction statistics over an ascending occupancy sample. */
export function compactionStats(occupancies: readonly number[]): CompactionStatsJson {
  let premature = 0;
  let nearBudget = 0;
  let nearWindow = 0;
  for (const o of occupancies) {
    if (o < PREMATURE_COMPACTION_LT) premature += 1;
    else if (o >= NEAR_BUDGET_LOW && o <= NEAR_BUDGET_HIGH) nearBudget += 1;
    if (o >= NEAR_WINDOW_MIN) nearWindow += 1;
  }
  return {
    events: occupancies.length,
    budget: COMPACTION_BUDGET,
    occupancy_p50: interpolatedPercentile(occupancies, 50),
    occupancy_p90: interpolatedPercentile(occupancies, 90),
    near_budget_96k: nearBudget,
    near_window_200k_plus: nearWindow,
    premature_lt40k: premature,
  };
}

function model(row: HealthSessionRow): { model?: string } {
  return row.model === "" ? {} : { model: row.model };
}

function cut<T>(rows: readonly T[], top: number): T[] {
  return top > 0 ? rows.slice(0, top) : [...rows];
}

/** Builds the health report from a (merged) partial; `top` ≤ 0 keeps every listed session. */
export function healthReport(partial: CorpusPartial, options: { readonly top?: number } = {}): HealthReportJson {
  const h = partial.health;
  const top = options.top ?? 0;
  const zero = Object.values(h.zeroTool).reduce((x, y) => x + y, 0);
  const compaction = compactionStats(h.occupancies);
  const flags: string[] = [];
  if (h.turns > 0 && zero / h.turns > HIGH_ZERO_TOOL_RATE) {
    flags.push(`HIGH_ZERO_TOOL_RATE: ${zero}/${h.turns} turns (${wholePercent((100 * zero) / h.turns)}%) call no tool`);
  }
  // Counted before the list is cut to `top`, so the flag reports every looping session.
  if (h.refusalLoops.length > 0) {
    flags.push(`GUARD_REFUSAL_LOOPS: ${h.refusalLoops.length} session(s) re-propose refused tool calls`);
  }
  if (compaction.premature_lt40k > 0) {
    flags.push(`PREMATURE_COMPACTION: ${compaction.premature_lt40k} compaction(s) fired under 40K occupancy (stuck-loop symptom)`);
  }
  return {
    schema: HEALTH_SCHEMA,
    sessions_with_turns: h.sessionsWithTurns,
    totals: {
      turns: h.turns,
      tool_calls: h.toolCalls,
      tool_calls_per_turn: h.turns > 0 ? round(h.toolCalls / h.turns, 1) : 0,
      zero_tool_turns: zero,
      zero_tool_rate: h.turns > 0 ? round(zero / h.turns, 3) : 0,
      ...(h.aborted > 0 ? { aborted: h.aborted } : {}),
      ...(h.superseded > 0 ? { superseded: h.superseded } : {}),
      ...(h.unterminated > 0 ? { unterminated: h.unterminated } : {}),
    },
    zero_tool_breakdown: { ...h.zeroTool },
    compaction,
    guard_refusal_loops: cut(h.refusalLoops, top).map((r) => ({
      session: r.session,
      ...model(r),
      refused_turns: r.refusedTurns,
      turns: r.turns,
    })),
    turn_inflation: cut(h.inflation, top).map((r) => ({
      session: r.session,
      ...model(r),
      turns: r.turns,
      tool_calls: r.toolCalls,
      zero_tool_turns: r.zeroToolTurns,
    })),
    flags,
    ...(h.scannedFiles > 0 ? { scanned_files: h.scannedFiles } : {}),
    ...(partial.unreadable > 0 ? { unreadable: partial.unreadable } : {}),
  };
}
