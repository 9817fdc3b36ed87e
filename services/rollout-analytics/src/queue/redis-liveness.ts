/** Options of a liveness check on one open connection. */
export interface LivenessOptions {
  /** Sends one PING; resolves true once Redis answered it (an error reply is an answer too), false when it failed unanswered. Never rejects. */
  readonly ping: () => Promise<boolean>;
  /** Pause between an answer and the next PING, in milliseconds. */
  readonly intervalMs: number;
  /** How long a PING may go unanswered before Redis counts as unresponsive, in milliseconds. */
  readonly timeoutMs: number;
  /** Called with false when a PING outlives the timeout, and with true when one answers after that. */
  readonly onResponsiveChange: (responsive: boolean) => void;
  /** Called with the round trip of each PING that Redis answered, in seconds, late ones included. */
  readonly onAnswered?: (seconds: number) => void;
}

/**
 * Pings an open Redis connection periodically, because a Redis that hangs (stopped, swapping,
 * stuck in a slow command) keeps its TCP connection and so never looks lost. One PING is in flight
 * at a time: an unanswered one is waited for, not joined by more, so a hung Redis collects no
 * queue of them, and its late answer is what ends the hang. The timers never keep the process alive.
 */
export class RedisLiveness {
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #responsive = true;

  /** Starts pinging `intervalMs` from now. */
  constructor(readonly options: LivenessOptions) {
    this.#after(options.intervalMs, () => this.#probe());
  }

  /** Stops pinging; a PING still in flight is ignored when it settles. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #after(ms: number, fn: () => void): void {
    this.#timer = setTimeout(fn, ms);
    this.#timer.unref();
  }

  #probe(): void {
    if (this.#stopped) return;
    this.#after(this.options.timeoutMs, () => this.#mark(false));
    const sentAt = performance.now();
    void this.options.ping().then((answered) => {
      if (this.#stopped) return;
      clearTimeout(this.#timer);
      if (answered) {
        this.options.onAnswered?.((performance.now() - sentAt) / 1000);
        this.#mark(true);
      }
      this.#after(this.options.intervalMs, () => this.#probe());
    });
  }

  #mark(responsive: boolean): void {
    if (this.#stopped || responsive === this.#responsive) return;
    this.#responsive = responsive;
    this.options.onResponsiveChange(responsive);
  }
}
