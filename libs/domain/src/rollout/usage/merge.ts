import { RolloutError } from "../errors.js";
import { mergeRecords, sortedRecord } from "../corpus/order.js";
import { addFigures, addFiguresInto, type FigureSum, sortedFigures, type TokenFigures } from "./figures.js";
import { USAGE_VERSION, type SessionUsage, type UsagePartial } from "./types.js";

/** Usage of nothing: the identity of {@link mergeUsage}. */
export function emptyUsage(): UsagePartial {
  return { version: USAGE_VERSION, byDay: {}, bySession: {}, repeats: 0, replayed: 0 };
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
    replayed: a.replayed + b.replayed,
  };
}

function addInto(table: Map<string, FigureSum>, models: Readonly<Record<string, TokenFigures>>): void {
  for (const [model, f] of Object.entries(models)) {
    const had = table.get(model);
    if (had === undefined) table.set(model, { ...f });
    else addFiguresInto(had, f);
  }
}

/**
 * Sums any number of usage partials in place: {@link UsageSum.result} equals {@link mergeUsage}
 * folded over the same partials, in any order. Each merge copies and sorts both partials, which
 * over thousands of files costs more than reading them; this sorts once, at the end.
 */
export class UsageSum {
  readonly #byDay = new Map<string, Map<string, FigureSum>>();
  readonly #bySession = new Map<string, { firstMs: number | null; lastMs: number | null; byModel: Map<string, FigureSum> }>();
  #repeats = 0;
  #replayed = 0;

  /** Adds one partial; it is not changed or kept. */
  add(p: UsagePartial): void {
    if (p.version !== USAGE_VERSION) {
      throw new RolloutError("PARTIAL_VERSION_MISMATCH", `usage partial version ${p.version} is not ${USAGE_VERSION}`);
    }
    for (const [day, models] of Object.entries(p.byDay)) {
      let table = this.#byDay.get(day);
      if (table === undefined) this.#byDay.set(day, (table = new Map()));
      addInto(table, models);
    }
    for (const [name, s] of Object.entries(p.bySession)) {
      const had = this.#bySession.get(name);
      if (had === undefined) {
        const byModel = new Map<string, FigureSum>();
        addInto(byModel, s.byModel);
        this.#bySession.set(name, { firstMs: s.firstMs, lastMs: s.lastMs, byModel });
      } else {
        had.firstMs = minOf(had.firstMs, s.firstMs);
        had.lastMs = maxOf(had.lastMs, s.lastMs);
        addInto(had.byModel, s.byModel);
      }
    }
    this.#repeats += p.repeats;
    this.#replayed += p.replayed;
  }

  /** The sum so far, keys byte-ordered at every level as {@link mergeUsage} leaves them. */
  result(): UsagePartial {
    const byDay = sortedRecord([...this.#byDay].map(([day, table]): [string, Record<string, TokenFigures>] => [day, sortedFigures(table)]));
    const bySession = sortedRecord(
      [...this.#bySession].map(([name, s]): [string, SessionUsage] => [
        name,
        { firstMs: s.firstMs, lastMs: s.lastMs, byModel: sortedFigures(s.byModel) },
      ]),
    );
    return { version: USAGE_VERSION, byDay, bySession, repeats: this.#repeats, replayed: this.#replayed };
  }
}
