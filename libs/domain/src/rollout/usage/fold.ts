import { sortedRecord } from "../corpus/order.js";
import type { RolloutRecord } from "../decode/record.js";
import { addSlotsInto, FIGURE_SLOTS, type FigureSum, readFigures, ReplyFigures, sortedFigures, type TokenCountUsage } from "./figures.js";
import { UNDATED, UNKNOWN_MODEL, USAGE_VERSION, type UsagePartial } from "./types.js";

// Per-reply usage from the cumulative totals: a `token_count` that repeats the previous totals is
// the same reply reported again (the producer re-emits on rate-limit updates) and adds nothing.
// `last_token_usage` is used only where no cumulative figure exists, for the first totals, or where
// the totals restarted.
// The fold works on figures in place (see `ReplyFigures`): a rollout's replies make no objects.
//
// A forked or spawned rollout (its first session_meta names `forked_from_id` or a parent thread)
// can begin with its parent's history copied in, `token_count` events included, written in one
// burst. As ccusage reads such a rollout without its parent: when its second dated reply comes
// within REPLAY_WINDOW_MS of its first, the replies from the first on are that copy for as long as
// each comes within REPLAY_WINDOW_MS of the copied reply before it that added tokens; they add
// nothing, and the last totals among them are where the rollout's own usage starts. A first reply
// alone in its window is its own. An undated reply decides nothing: it goes with the replies
// around it.

const MS_PER_DAY = 86_400_000;
/** The longest pause between two replies of a child rollout's copied history. */
const REPLAY_WINDOW_MS = 1000;

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A reply held back until a child rollout's copied history is told from its own. */
interface Held {
  readonly figures: ReplyFigures;
  readonly tsMs: number | null;
  readonly model: string;
}

const timeOrNull = (ms: number): number | null => (Number.isNaN(ms) ? null : ms);

// Sums by model are Maps: a model is any text a rollout writes, and as a key of a plain object
// `constructor` or `__proto__` would read (and write) what the object inherits.
function bump(table: Map<string, FigureSum>, key: string, slots: Float64Array, at: number): void {
  const had = table.get(key);
  if (had === undefined) table.set(key, readFigures(slots, at));
  else addSlotsInto(had, slots, at);
}

/**
 * Token usage of one rollout folded record by record, in file order. The scan folds a decoded
 * rollout's records through it and the usage-only reader folds the few lines it decodes, so both
 * answer alike. Only `turn_context` (the model) and `token_count` (the figures) records matter.
 */
export class UsageFold {
  readonly #byDay = new Map<string, Map<string, FigureSum>>();
  readonly #byModel = new Map<string, FigureSum>();
  #model = UNKNOWN_MODEL;
  // The previous cumulative totals (while `#hasPrevious`), and the growth since them.
  readonly #previous = new Float64Array(FIGURE_SLOTS);
  #hasPrevious = false;
  readonly #growth = new Float64Array(FIGURE_SLOTS);
  // Figures given as objects are folded through here.
  readonly #given = new ReplyFigures();
  #repeats = 0;
  // Copied history of a child rollout: `off` (none, or settled), `awaiting` its first reply,
  // `first` holding that reply back, `burst` inside the copy.
  #replay: "off" | "awaiting" | "first" | "burst" = "off";
  #sawMeta = false;
  // The time of the last copied reply that added tokens (of the first reply, at first).
  #replayLastMs = 0;
  // The first reply held back with any undated ones after it, each with its time and model.
  readonly #held: Held[] = [];
  #replayed = 0;
  // The first and last dated reply's time, NaN before any: a number field is updated in place.
  #firstMs = Number.NaN;
  #lastMs = Number.NaN;
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
    if (r.kind === "turn_context") this.turnContext(r.model);
    else if (r.kind === "token_count" && r.usage !== null) this.reply(r.usage, r.tsMs, r.model);
    else if (r.kind === "session_meta" && !this.#sawMeta) {
      // Only the first names the rollout; later ones are copies of its ancestors'.
      this.#sawMeta = true;
      if (r.meta.forkedFromId !== "" || r.meta.parentThreadId !== "") this.#replay = "awaiting";
    }
  }

  /** Folds a `turn_context` naming `model` ("" when it names none): the replies after it are that model's. */
  turnContext(model: string): void {
    if (model !== "") this.#model = model;
  }

  /**
   * Folds the figures of the next `token_count` event, dated `tsMs` (null when undated). A model
   * the event names is its reply's, and the model of the replies after it until a turn_context
   * names another, as ccusage reads it.
   */
  reply(usage: TokenCountUsage, tsMs: number | null, model = ""): void {
    if (model !== "" && (usage.total !== null || usage.last !== null)) this.#model = model;
    this.replyFigures(this.#given.setUsage(usage), tsMs);
  }

  /** {@link reply} for figures held in place. */
  replyFigures(figures: ReplyFigures, tsMs: number | null): void {
    // No figures at all add nothing, as a repeat does.
    if (!figures.hasTotal && !figures.hasLast) {
      this.#repeats += 1;
      return;
    }
    if (this.#replay !== "off" && this.#copied(figures, tsMs)) return;
    this.#count(figures, tsMs, this.#model);
  }

  // Whether this reply belongs to the copied history of a child rollout (see the top of the file).
  #copied(figures: ReplyFigures, tsMs: number | null): boolean {
    if (this.#replay === "awaiting") {
      // Undated replies before the first dated one are the rollout's own.
      if (tsMs === null) return false;
      this.#replay = "first";
      this.#replayLastMs = tsMs;
      this.#hold(figures, tsMs);
      return true;
    }
    if (tsMs === null) {
      if (this.#replay === "first") this.#hold(figures, null);
      else this.#startAfter(figures);
      return true;
    }
    const d = tsMs - this.#replayLastMs;
    if (!(d >= 0 && d <= REPLAY_WINDOW_MS)) {
      this.#settleReplay();
      return false;
    }
    if (this.#replay === "first") {
      this.#replay = "burst";
      for (const held of this.#held) this.#startAfter(held.figures);
      this.#held.length = 0;
    }
    if (this.#startAfter(figures)) this.#replayLastMs = tsMs;
    return true;
  }

  #hold(figures: ReplyFigures, tsMs: number | null): void {
    const copy = new ReplyFigures();
    copy.slots.set(figures.slots);
    copy.hasTotal = figures.hasTotal;
    copy.hasLast = figures.hasLast;
    this.#held.push({ figures: copy, tsMs, model: this.#model });
  }

  // A copied reply: counted as copied, its totals the baseline of the replies after it. Answers
  // whether it added tokens (input, cached, output or reasoning) by the rule that counts replies.
  #startAfter(figures: ReplyFigures): boolean {
    this.#replayed += 1;
    const { slots } = figures;
    let added = false;
    if (!figures.hasTotal || !this.#hasPrevious) {
      const at = figures.hasLast ? FIGURE_SLOTS : 0;
      for (let k = 0; k < FIGURE_SLOTS - 1; k += 1) if ((slots[at + k] ?? 0) !== 0) added = true;
    } else {
      for (let k = 0; k < FIGURE_SLOTS - 1; k += 1) if ((slots[k] ?? 0) !== (this.#previous[k] ?? 0)) added = true;
    }
    if (figures.hasTotal) {
      for (let k = 0; k < FIGURE_SLOTS; k += 1) this.#previous[k] = slots[k] ?? 0;
      this.#hasPrevious = true;
    }
    return added;
  }

  // Ends the copy: a first reply alone in its window was the rollout's own, and is counted now,
  // with any undated replies held after it.
  #settleReplay(): void {
    this.#replay = "off";
    for (const held of this.#held) this.#count(held.figures, held.tsMs, held.model);
    this.#held.length = 0;
  }

  #count(figures: ReplyFigures, tsMs: number | null, model: string): void {
    const { slots } = figures;
    const previous = this.#previous;
    // Where the tokens this reply adds are: this reply's own figures, the totals, or the growth.
    let from: Float64Array = slots;
    let at = 0;
    if (!figures.hasTotal) at = FIGURE_SLOTS;
    else if (!this.#hasPrevious) {
      // The first totals can hold more than this file's replies (a parent's history, or replies
      // given with their own figures only): the reply's own figures say what it added.
      for (let k = 0; k < FIGURE_SLOTS; k += 1) previous[k] = slots[k] ?? 0;
      this.#hasPrevious = true;
      if (figures.hasLast) at = FIGURE_SLOTS;
    } else {
      const growth = this.#growth;
      let down = false;
      let zero = true;
      for (let k = 0; k < FIGURE_SLOTS; k += 1) {
        const total = slots[k] ?? 0;
        const d = total - (previous[k] ?? 0);
        previous[k] = total;
        growth[k] = d;
        if (d < 0) down = true;
        else if (d !== 0) zero = false;
      }
      // Totals that went down restarted: the reply's own figures say what it added.
      if (down) at = figures.hasLast ? FIGURE_SLOTS : 0;
      else if (zero) {
        this.#repeats += 1;
        return;
      } else from = growth;
    }
    const day = this.#dayKey(tsMs);
    let models = this.#byDay.get(day);
    if (models === undefined) this.#byDay.set(day, (models = new Map()));
    bump(models, model, from, at);
    bump(this.#byModel, model, from, at);
    if (tsMs !== null) {
      // NaN compares false: the first time taken replaces it.
      if (!(tsMs >= this.#firstMs)) this.#firstMs = tsMs;
      if (!(tsMs <= this.#lastMs)) this.#lastMs = tsMs;
    }
  }

  /** The usage of the whole rollout, named `session`; a first reply still held back is counted. */
  result(session: string): UsagePartial {
    this.#settleReplay();
    const byModel = this.#byModel;
    const bySession =
      byModel.size === 0
        ? {}
        : {
            [session]: {
              firstMs: timeOrNull(this.#firstMs),
              lastMs: timeOrNull(this.#lastMs),
              byModel: sortedFigures(byModel),
            },
          };
    const days = sortedRecord(Array.from(this.#byDay, ([day, models]) => [day, sortedFigures(models)]));
    return { version: USAGE_VERSION, byDay: days, bySession, repeats: this.#repeats, replayed: this.#replayed };
  }
}

/** Token usage of one rollout's records, named `session`. */
export function usageOfRecords(records: readonly RolloutRecord[], session: string): UsagePartial {
  const fold = new UsageFold();
  for (const r of records) fold.push(r);
  return fold.result(session);
}
