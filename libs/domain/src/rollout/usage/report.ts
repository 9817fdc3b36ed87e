import { addFigures, ZERO_FIGURES, type TokenFigures } from "./figures.js";
import { costOf, modelPrice, type PricingTable } from "./pricing.js";
import type { UsagePartial } from "./types.js";

/** Schema name of the usage report. */
export const USAGE_SCHEMA = "crs-rollout-usage/1";

/** How usage rows are grouped. */
export type UsageGrouping = "day" | "month" | "model" | "session";

/** Every grouping, in help order. */
export const USAGE_GROUPINGS: readonly UsageGrouping[] = ["day", "month", "model", "session"];

/** Token figures and their cost, in the report's field names. */
export interface UsageFiguresJson {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
  /** Cost of the priced models' tokens; null when no model of the row has a price. */
  cost: number | null;
  /** Models of the row without a price (their tokens are not in `cost`). */
  unpriced_models: string[];
}

/** One row of the usage report. */
export interface UsageRowJson extends UsageFiguresJson {
  key: string;
  models: string[];
  /** Sessions only: first and last counted reply, RFC 3339. */
  first_at?: string;
  last_at?: string;
}

/** The usage report. */
export interface UsageReportJson {
  schema: typeof USAGE_SCHEMA;
  by: UsageGrouping;
  pricing: { as_of: string; currency: string; source: string };
  rows: UsageRowJson[];
  totals: UsageFiguresJson;
  /** token_count events not counted because they repeated the previous totals. */
  repeated_token_counts: number;
  /** token_count events not counted because they were a parent's history copied into a forked or spawned rollout. */
  replayed_token_counts: number;
}

// Figures by model. A Map, since a model is any text a rollout writes: as a key of a plain object,
// `constructor` or `__proto__` would read (and write) what the object inherits.
type ModelFigures = Map<string, TokenFigures>;

function add(into: ModelFigures, from: Readonly<Record<string, TokenFigures>>): void {
  for (const [model, f] of Object.entries(from)) into.set(model, addFigures(into.get(model) ?? ZERO_FIGURES, f));
}

function figuresJson(byModel: ReadonlyMap<string, TokenFigures>, pricing: PricingTable): UsageFiguresJson {
  let sum = ZERO_FIGURES;
  let cost: number | null = null;
  const unpriced: string[] = [];
  for (const model of [...byModel.keys()].sort()) {
    const f = byModel.get(model) ?? ZERO_FIGURES;
    sum = addFigures(sum, f);
    const p = modelPrice(pricing, model);
    if (p === undefined) unpriced.push(model);
    else cost = (cost ?? 0) + costOf(f, p);
  }
  return {
    input_tokens: sum.input,
    cached_input_tokens: sum.cachedInput,
    output_tokens: sum.output,
    reasoning_output_tokens: sum.reasoning,
    total_tokens: sum.total,
    cost,
    unpriced_models: unpriced,
  };
}

function row(key: string, byModel: ReadonlyMap<string, TokenFigures>, pricing: PricingTable): UsageRowJson {
  return { key, ...figuresJson(byModel, pricing), models: [...byModel.keys()].sort() };
}

function groups(partial: UsagePartial, by: UsageGrouping): Map<string, ModelFigures> {
  const out = new Map<string, ModelFigures>();
  const into = (key: string): ModelFigures => {
    let g = out.get(key);
    if (g === undefined) out.set(key, (g = new Map()));
    return g;
  };
  for (const [day, models] of Object.entries(partial.byDay)) {
    if (by === "day") add(into(day), models);
    else if (by === "month") add(into(day.length === 10 ? day.slice(0, 7) : day), models);
    else if (by === "model") for (const [model, f] of Object.entries(models)) add(into(model), { [model]: f });
  }
  return out;
}

/**
 * Each row's token figures by model, keyed by the row's key as {@link usageReport} groups `by`
 * (a model row holds its one model), for views that weigh a row's models against each other.
 */
export function usageRowModels(partial: UsagePartial, by: UsageGrouping): Map<string, ReadonlyMap<string, TokenFigures>> {
  if (by !== "session") return groups(partial, by);
  return new Map(Object.entries(partial.bySession).map(([name, s]) => [name, new Map(Object.entries(s.byModel))]));
}

const iso = (ms: number | null): string => (ms === null ? "" : new Date(ms).toISOString());

/** The usage report of a merged partial, grouped `by`, priced with `pricing`. Rows are in a fixed order. */
export function usageReport(partial: UsagePartial, by: UsageGrouping, pricing: PricingTable): UsageReportJson {
  let rows: UsageRowJson[];
  if (by === "session") {
    const names = Object.keys(partial.bySession).sort((a, b) => {
      const fa = partial.bySession[a]?.firstMs ?? Number.MAX_SAFE_INTEGER;
      const fb = partial.bySession[b]?.firstMs ?? Number.MAX_SAFE_INTEGER;
      return fa - fb || (a < b ? -1 : a > b ? 1 : 0);
    });
    const byModel = usageRowModels(partial, by);
    rows = names.map((name) => {
      const s = partial.bySession[name];
      return {
        ...row(name, byModel.get(name) ?? new Map(), pricing),
        first_at: iso(s?.firstMs ?? null),
        last_at: iso(s?.lastMs ?? null),
      };
    });
  } else {
    rows = [...groups(partial, by)].map(([key, models]) => row(key, models, pricing));
    // Days and months read in time order; models by tokens, largest first.
    if (by === "model") rows.sort((a, b) => b.total_tokens - a.total_tokens || (a.key < b.key ? -1 : 1));
    else rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  const all: ModelFigures = new Map();
  for (const models of Object.values(partial.byDay)) add(all, models);
  return {
    schema: USAGE_SCHEMA,
    by,
    pricing: { as_of: pricing.asOf, currency: pricing.currency, source: pricing.source },
    rows,
    totals: figuresJson(all, pricing),
    repeated_token_counts: partial.repeats,
    replayed_token_counts: partial.replayed,
  };
}
