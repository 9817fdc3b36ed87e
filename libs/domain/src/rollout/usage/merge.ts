import { RolloutError } from "../errors.js";
import { mergeRecords } from "../corpus/order.js";
import { addFigures, type TokenFigures } from "./figures.js";
import { USAGE_VERSION, type SessionUsage, type UsagePartial } from "./types.js";

/** Usage of nothing: the identity of {@link mergeUsage}. */
export function emptyUsage(): UsagePartial {
  return { version: USAGE_VERSION, byDay: {}, bySession: {}, repeats: 0 };
}

function mergeModels(a: Readonly<Record<string, TokenFigures>>, b: Readonly<Record<string, TokenFigures>>): Record<string, TokenFigures> {
  return mergeRecords(a, b, { both: addFigures });
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
  // Byte-ordered keys, as every map of a partial, so merged partials compare equal as JSON.
  return {
    version: USAGE_VERSION,
    // A day of one side alone still has its models put in order.
    byDay: mergeRecords(a.byDay, b.byDay, { both: mergeModels, right: (models) => mergeModels({}, models) }),
    bySession: mergeRecords(a.bySession, b.bySession, { both: mergeSession }),
    repeats: a.repeats + b.repeats,
  };
}
