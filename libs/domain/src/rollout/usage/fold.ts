import { sortedRecord } from "../corpus/order.js";
import type { RolloutRecord } from "../decode/record.js";
import {
  addFiguresInto,
  type FigureSum,
  growthOf,
  sortedFigures,
  isZeroFigures,
  type TokenCountUsage,
  type TokenFigures,
} from "./figures.js";
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

const MS_PER_DAY = 86_400_000;

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function bump(table: Record<string, FigureSum>, key: string, f: TokenFigures): void {
  const had = table[key];
  if (had === undefined) table[key] = { ...f };
  else addFiguresInto(had, f);
}

/**
 * Token usage of one rollout folded record by record, in file order. The scan folds a decoded
 * rollout's records through it and the usage-only reader folds the few lines it decodes, so both
 * answer alike. Only `turn_context` (the model) and `token_count` (the figures) records matter.
 */
export class UsageFold {
  readonly #byDay: Record<string, Record<string, FigureSum>> = {};
  readonly #byModel: Record<string, FigureSum> = {};
  #model = UNKNOWN_MODEL;
  #previous: TokenFigures | null = null;
  #repeats = 0;
  #firstMs: number | null = null;
  #lastMs: number | null = null;
  // The UTC day of the last dated reply: replies come in runs of one day, and formatting a date
  // for each would cost more than the rest of the fold.
  #dayStart = Number.NaN;
  #day = "";

  #dayKey(ms: number | null): string {
    if (ms === null) return UNDATED;
    if (!(ms >= this.#dayStart && ms < this.#dayStart + MS_PER_DAY)) {
      this.#dayStart = Math.floor(ms / MS_PER_DAY) * MS_PER_DAY;
      this.#day = dayOf(ms);
    }
    return this.#day;
  }

  /** Folds the next record of the rollout; records other than the two above change nothing. */
  push(r: RolloutRecord): void {
    if (r.kind === "turn_context") {
      if (r.model !== "") this.#model = r.model;
    } else if (r.kind === "token_count" && r.usage !== null) this.reply(r.usage, r.tsMs);
  }

  /** Folds the figures of the next `token_count` event, dated `tsMs` (null when undated). */
  reply(usage: TokenCountUsage, tsMs: number | null): void {
    const delta = replyDelta(usage, this.#previous);
    if (usage.total !== null) this.#previous = usage.total;
    if (delta === null) {
      this.#repeats += 1;
      return;
    }
    bump((this.#byDay[this.#dayKey(tsMs)] ??= {}), this.#model, delta);
    bump(this.#byModel, this.#model, delta);
    if (tsMs !== null) {
      this.#firstMs = this.#firstMs === null ? tsMs : Math.min(this.#firstMs, tsMs);
      this.#lastMs = this.#lastMs === null ? tsMs : Math.max(this.#lastMs, tsMs);
    }
  }

  /** The usage folded so far, named `session` (a file name loses its `.jsonl`). */
  result(session: string): UsagePartial {
    const name = session.endsWith(".jsonl") ? session.slice(0, -".jsonl".length) : session;
    const byModel = this.#byModel;
    const bySession =
      Object.keys(byModel).length === 0
        ? {}
        : { [name]: { firstMs: this.#firstMs, lastMs: this.#lastMs, byModel: sortedFigures(Object.entries(byModel)) } };
    const days = sortedRecord(Object.entries(this.#byDay).map(([day, models]) => [day, sortedFigures(Object.entries(models))]));
    return { version: USAGE_VERSION, byDay: days, bySession, repeats: this.#repeats };
  }
}

/** Token usage of one rollout's records, named `session` (a file name loses its `.jsonl`). */
export function usageOfRecords(records: readonly RolloutRecord[], session: string): UsagePartial {
  const fold = new UsageFold();
  for (const r of records) fold.push(r);
  return fold.result(session);
}
