import { sortedRecord } from "../corpus/order.js";
import type { RolloutRecord } from "../decode/record.js";
import { addFigures, growthOf, isZeroFigures, type TokenCountUsage, type TokenFigures } from "./figures.js";
import { UNDATED, UNKNOWN_MODEL, USAGE_VERSION, type UsagePartial } from "./types.js";

// Per-reply usage from the cumulative totals: a `token_count` that repeats the previous totals is
// the same reply reported again (the producer re-emits on rate-limit updates) and adds nothing.
// `last_token_usage` is used only where no cumulative figure exists or the totals restarted.

/** The tokens one `token_count` adds, given the previous cumulative totals (null before any). */
export function replyDelta(usage: TokenCountUsage, previous: TokenFigures | null): TokenFigures | null {
  if (usage.total === null) return usage.last;
  if (previous === null) return usage.total;
  const growth = growthOf(usage.total, previous);
  if (growth === null) return usage.last ?? usage.total;
  return isZeroFigures(growth) ? null : growth;
}

function dayOf(ms: number | null): string {
  return ms === null ? UNDATED : new Date(ms).toISOString().slice(0, 10);
}

function bump(table: Record<string, TokenFigures>, key: string, f: TokenFigures): void {
  const had = table[key];
  table[key] = had === undefined ? f : addFigures(had, f);
}

/** Token usage of one rollout's records, named `session` (a file name loses its `.jsonl`). */
export function usageOfRecords(records: readonly RolloutRecord[], session: string): UsagePartial {
  const name = session.endsWith(".jsonl") ? session.slice(0, -".jsonl".length) : session;
  const byDay: Record<string, Record<string, TokenFigures>> = {};
  const byModel: Record<string, TokenFigures> = {};
  let model = UNKNOWN_MODEL;
  let previous: TokenFigures | null = null;
  let repeats = 0;
  let firstMs: number | null = null;
  let lastMs: number | null = null;
  for (const r of records) {
    if (r.kind === "turn_context") {
      if (r.model !== "") model = r.model;
      continue;
    }
    if (r.kind !== "token_count" || r.usage === null) continue;
    const delta = replyDelta(r.usage, previous);
    if (r.usage.total !== null) previous = r.usage.total;
    if (delta === null) {
      repeats += 1;
      continue;
    }
    bump((byDay[dayOf(r.tsMs)] ??= {}), model, delta);
    bump(byModel, model, delta);
    if (r.tsMs !== null) {
      firstMs = firstMs === null ? r.tsMs : Math.min(firstMs, r.tsMs);
      lastMs = lastMs === null ? r.tsMs : Math.max(lastMs, r.tsMs);
    }
  }
  const bySession =
    Object.keys(byModel).length === 0 ? {} : { [name]: { firstMs, lastMs, byModel: sortedRecord(Object.entries(byModel)) } };
  const days = sortedRecord(Object.entries(byDay).map(([day, models]) => [day, sortedRecord(Object.entries(models))]));
  return { version: USAGE_VERSION, byDay: days, bySession, repeats };
}
