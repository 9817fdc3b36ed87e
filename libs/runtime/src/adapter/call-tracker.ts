/** Answers a call with `error` unless it has been answered already. */
export type CallTerminator = (error: Error) => void;

/** What the tracker aborts: an AbortController, or anything that aborts a call the same way. */
export interface Abortable {
  abort(reason: Error): void;
}

interface Tracked {
  readonly streaming: boolean;
  readonly terminate: CallTerminator | undefined;
}

/**
 * Keeps the aborts of in-flight calls so shutdown can end open streams, wait for
 * unary calls to drain, and answer whatever outlives the drain before connections are reset.
 */
export class CallTracker {
  readonly #active = new Map<Abortable, Tracked>();
  #idle: (() => void)[] = [];
  // Calls that start after an abort (already accepted when the listener closed) get the same abort.
  #aborted: { reason: Error; all: boolean } | undefined;

  /**
   * Registers a call (`streaming` when the server answers with a stream) and how to answer it at
   * shutdown; returns its unregister.
   */
  enter(controller: Abortable, streaming: boolean, terminate?: CallTerminator): () => void {
    this.#active.set(controller, { streaming, terminate });
    if (this.#aborted !== undefined && (this.#aborted.all || streaming)) controller.abort(this.#aborted.reason);
    return () => {
      this.#active.delete(controller);
      if (this.#active.size === 0) for (const resolve of this.#idle.splice(0)) resolve();
    };
  }

  /** How many calls are in flight. */
  get size(): number {
    return this.#active.size;
  }

  /** Aborts in-flight calls with `reason`: only server streams, or every call when `all`. */
  abort(reason: Error, all: boolean): void {
    this.#aborted = { reason, all: all || this.#aborted?.all === true };
    for (const [controller, { streaming }] of this.#active) if (all || streaming) controller.abort(reason);
  }

  /** Answers every call still in flight with `reason`, whether or not its handler has finished. */
  terminate(reason: Error): void {
    for (const { terminate } of this.#active.values()) terminate?.(reason);
  }

  /** Resolves when no call is in flight. */
  idle(): Promise<void> {
    if (this.#active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
