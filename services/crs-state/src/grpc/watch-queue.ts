/**
 * One watch's side of the commit feed: it hears every commit of its project (subscribed before the
 * watch reads its catch-up, so nothing committed in between is missed), drops what the catch-up
 * already covers, keeps the matching changes until the stream sends them, and refuses to keep
 * more than its bound.
 */

import type { DeltaRecord } from "@crs/domain/state";
import { CrsStateError } from "../errors.js";
import type { CommitEvent, ProjectHeader } from "../projects/index.js";

/**
 * Most messages one watch keeps for a consumer that reads slower than its project is written.
 * Each holds one commit's change (a delta of at most 10 000 entries), so a watch holds at most
 * this many changes beyond what its transport window carries; and it is well under the 1000
 * changes the history keeps by default, so a consumer cut off here can resume from its last
 * generation with `start_generation` while the history still holds it.
 */
export const MAX_QUEUED_WATCH_MESSAGES = 256;

/** One queued message: the changes one commit made that match the watch. */
export interface QueuedChanges {
  readonly generation: number;
  readonly records: readonly DeltaRecord[];
}

/** What a queue is made with. */
export interface WatchQueueOptions {
  /** Whether a change matches the watch's filters. */
  readonly match: (r: DeltaRecord) => boolean;
  /** Most queued messages before the watch fails WATCH_SLOW_CONSUMER. */
  readonly limit: number;
  /** Called once when the watch fails on its own (slow consumer, project deleted, state replaced). */
  readonly failed: (error: CrsStateError) => void;
}

/** The changes heard for one watch and not yet sent. */
export class WatchQueue {
  #entries: QueuedChanges[] = [];
  #header: ProjectHeader | undefined;
  #failure: CrsStateError | undefined;
  #wake: (() => void) | undefined;
  // Commits heard before the watch opened, judged once it knows where its catch-up ends.
  #early: Extract<CommitEvent, { type: "committed" }>[] = [];

  constructor(private readonly options: WatchQueueOptions) {}

  /** Messages waiting to be sent. */
  get size(): number {
    return this.#entries.length;
  }

  /** The project as last heard: the header of the next message. */
  get header(): ProjectHeader {
    return this.#header as ProjectHeader;
  }

  /** Starts after `header`'s generation, which the caller's catch-up covers; call during the read. */
  open(header: ProjectHeader): void {
    this.#header = header;
    const early = this.#early;
    this.#early = [];
    for (const event of early) this.hear(event);
  }

  /** Takes note of one event of the project; the commit feed's listener. */
  hear(event: CommitEvent): void {
    if (this.#failure !== undefined) return;
    const current = this.#header;
    if (current === undefined) {
      if (event.type === "committed") this.#early.push(event);
      if (this.#early.length > this.options.limit) this.#fail(slowConsumer(this.options.limit));
      return;
    }
    if (event.type === "deleted" || event.header.projectUid !== current.projectUid) {
      if (event.type === "deleted" && event.projectUid !== current.projectUid) return;
      this.#fail(
        new CrsStateError("PROJECT_NOT_FOUND", `project ${current.projectId} was deleted while watched`, { projectId: current.projectId }),
      );
      return;
    }
    const generation = event.header.generation;
    if (generation <= current.generation) return;
    if (event.replaced) {
      // The state the client mirrors is gone: no change leads from it to the new one.
      this.#fail(stateReplaced(current, generation));
      return;
    }
    this.#header = event.header;
    const record = event.snapshot.deltaHistory.byGeneration(generation);
    if (record === undefined || !this.options.match(record)) return;
    if (this.#entries.length >= this.options.limit) {
      this.#fail(slowConsumer(this.options.limit));
      return;
    }
    this.#entries.push({ generation, records: [record] });
    this.#wakeUp();
  }

  /**
   * The next queued message; undefined when `waitMs` (> 0) passed without one. Throws the watch's
   * failure, or the signal's reason once it is aborted.
   */
  async next(signal: AbortSignal, waitMs: number): Promise<QueuedChanges | undefined> {
    if (this.#entries.length === 0 && this.#failure === undefined && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const timer = waitMs > 0 ? setTimeout(done, waitMs) : undefined;
        function done(): void {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          resolve();
        }
        this.#wake = done;
        signal.addEventListener("abort", done, { once: true });
      });
      this.#wake = undefined;
    }
    if (signal.aborted) throw signal.reason;
    if (this.#failure !== undefined) throw this.#failure;
    return this.#entries.shift();
  }

  #fail(error: CrsStateError): void {
    this.#failure = error;
    this.#entries = [];
    this.#early = [];
    this.options.failed(error);
    this.#wakeUp();
  }

  #wakeUp(): void {
    this.#wake?.();
  }
}

/**
 * GENERATION_COMPACTED, as for a start below the history: the changes up to `generation` no longer
 * lead to the state, which a restore or import replaced there. The client re-reads a snapshot (at
 * `oldest` or later; by default the replacement's generation) and watches again after it, as etcd
 * clients do after a compaction. `header` is the project as the watch last knew it.
 */
export function stateReplaced(header: ProjectHeader, generation: number, oldest = generation): CrsStateError {
  return new CrsStateError(
    "GENERATION_COMPACTED",
    `watch: the state of project ${header.projectId} was replaced at generation ${generation} (restore or import); ` +
      "read a snapshot and watch again from the generation after it",
    {
      project_id: header.projectId,
      oldest_generation: String(oldest),
      current_generation: String(Math.max(header.generation, generation)),
    },
  );
}

function slowConsumer(limit: number): CrsStateError {
  return new CrsStateError(
    "WATCH_SLOW_CONSUMER",
    `watch: the consumer fell more than ${limit} messages behind; resume with start_generation after the last change received`,
    { limit: String(limit) },
  );
}
