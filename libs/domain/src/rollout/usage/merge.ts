import { RolloutError } from "../errors.js";
import { sortedRecord } from "../corpus/order.js";
import { addFigures, type TokenFigures } from "./figures.js";
import { USAGE_VERSION, type SessionUsage, type UsagePartial } from "./types.js";

/** Usage of nothing: the identity of {@link mergeUsage}. */
export function emptyUsage(): UsagePartial {
  return { version: USAGE_VERSION, byDay: {}, bySession: {}, repeats: 0 };
}

function mergeModels(a: Readonly<Record<string, TokenFigures>>, b: Readonly<Record<string, TokenFigures>>): Record<string, TokenFigures> {
  const out: Record<string, TokenFigures> = { ...a };
  for (const [model, f] of Object.entries(b)) {
    const had = out[model];
    out[model] = had === undefined ? f : addFigures(had, f);
  }
  return sortedRecord(Object.entries(out));
}

function minOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

function maxOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}

function mergeSession(a: SessionUsage, b: SessionUsage): SessionUsage {
  return { firstMs: minOf(a.firstMs, b.firstMs), lastMs: maxOf(a.lastMs, b.lastMs), byModel: mergeModels(a.byModel, b.byModel) };
}

/** Sum of two usage partials (associative and commutative; two files of one session add up). */
export function mergeUsage(a: UsagePartial, b: UsagePartial): UsagePartial {
  if (a.version !== USAGE_VERSION || b.version !== USAGE_VERSION) {
    throw new RolloutError(
      "PARTIAL_VERSION_MISMATCH",
      `usage partial version ${a.version === USAGE_VERSION ? b.version : a.version} is not ${USAGE_VERSION}`,
    );
  }
  const byDay: Record<string, Record<string, TokenFigures>> = { ...a.byDay };
  for (const [day, models] of Object.entries(b.byDay)) byDay[day] = mergeModels(byDay[day] ?? {}, models);
  const bySession: Record<string, SessionUsage> = { ...a.bySession };
  for (const [name, s] of Object.entries(b.bySession)) {
    const had = bySession[name];
    bySession[name] = had === undefined ? s : mergeSession(had, s);
  }
  // Byte-ordered keys, as every map of a partial, so merged partials compare equal as JSON.
  return {
    version: USAGE_VERSION,
    byDay: sortedRecord(Object.entries(byDay)),
    bySession: sortedRecord(Object.entries(bySession)),
    repeats: a.repeats + b.repeats,
  };
}
