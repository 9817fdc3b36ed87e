import type { RolloutRecord } from "../decode/record.js";
import { type FinishInput, RecordFold } from "./record-fold.js";
import type { FoldedRollout } from "./types.js";

/** Options of {@link RolloutFold}. */
export interface RolloutFoldOptions {
  /** Most per-call outcomes and post-tool spans listed (every call is still counted); all when absent. */
  readonly maxListed?: number;
  /**
   * Whether post-tool gaps are kept as samples for the corpus partial (one number per tool
   * result; the default). A fold read only for its analytics can do without them.
   */
  readonly postToolSamples?: boolean;
}

/**
 * The rollout fold: records pushed one at a time in file order, everything learned returned at
 * the end, in memory bounded by what is still open rather than by the number of records.
 *
 * User input is read from user_message events; only a rollout with none (the pre-wrapper layout
 * wrote response items alone) reads it from user message items, which would otherwise count
 * twice. Whether one will come is not known while the records stream, so a second fold reading
 * the items runs beside the first until an event settles it, or until a start has made turns
 * explicit before any item could open one (from then on the two agree).
 */
export class RolloutFold {
  readonly #events: RecordFold;
  #items: RecordFold | null;
  #itemsOpenedTurn = false;

  /** An empty fold. */
  constructor(options: RolloutFoldOptions = {}) {
    const maxListed = options.maxListed ?? Number.POSITIVE_INFINITY;
    const postToolSamples = options.postToolSamples ?? true;
    this.#events = new RecordFold({ itemsSpeak: false, maxListed, postToolSamples });
    this.#items = new RecordFold({ itemsSpeak: true, maxListed, postToolSamples });
  }

  /** Takes the next record. */
  push(r: RolloutRecord): void {
    const items = this.#items;
    if (items !== null) {
      if (r.kind === "user_message" && r.source === "event") this.#items = null;
      else {
        if (r.kind === "user_message" && !items.explicit) this.#itemsOpenedTurn = true;
        items.push(r);
      }
    }
    this.#events.push(r);
    if (this.#items !== null && !this.#itemsOpenedTurn && this.#events.explicit) this.#items = null;
  }

  /** Ends the rollout and returns what was folded. */
  finish(input: FinishInput): FoldedRollout {
    return (this.#items ?? this.#events).finish(input);
  }
}
