import { Redis, ReplyError } from "ioredis";
import { redactCredentials, type Logger } from "@crs/runtime";
import { REDIS_LIVENESS } from "../config/index.js";
import { RedisLiveness } from "./redis-liveness.js";

/** Options of the watched Redis connection. */
export interface RedisConnectionOptions {
  /** `redis://` URL of the server. */
  readonly url: string;
  /** Where connection changes are logged. */
  readonly logger: Logger;
  /** Called with true when Redis becomes ready and false when it is lost or stops answering. */
  readonly onReadyChange: (ready: boolean) => void;
  /**
   * Longest pause between reconnection attempts, in milliseconds.
   * @defaultValue 5000
   */
  readonly maxRetryDelayMs?: number;
  /**
   * Pause between liveness PINGs while connected, in milliseconds.
   * @defaultValue 5000
   */
  readonly pingIntervalMs?: number;
  /**
   * How long a PING may go unanswered before the connection counts as not ready, in milliseconds.
   * @defaultValue 2000
   */
  readonly pingTimeoutMs?: number;
  /** Called with the round trip of each liveness PING that Redis answered, in seconds. */
  readonly onPingAnswered?: (seconds: number) => void;
}

// Credentials never reach a log line: every URL logged goes through redactCredentials.

/**
 * A Redis connection that retries forever with capped backoff and reports readiness, so the
 * service starts without Redis. It is ready while connected and answering its liveness PINGs. It
 * is wired for the scan queue to come; until that queue is built it only checks and logs the
 * connection.
 */
export class RedisConnection {
  readonly client: Redis;
  #ready = false;
  #connected = false;
  #responsive = true;
  #liveness: RedisLiveness | undefined;
  readonly #pingIntervalMs: number;
  readonly #pingTimeoutMs: number;
  // The problem last logged, so each retry of the same one adds no line.
  #warned: "unreachable" | "refused" | undefined;

  constructor(readonly options: RedisConnectionOptions) {
    const maxDelay = options.maxRetryDelayMs ?? 5000;
    this.#pingIntervalMs = options.pingIntervalMs ?? REDIS_LIVENESS.pingIntervalMs;
    this.#pingTimeoutMs = options.pingTimeoutMs ?? REDIS_LIVENESS.pingTimeoutMs;
    this.client = new Redis(options.url, {
      lazyConnect: true,
      maxRetriesPerRequest: null,
      enableOfflineQueue: true,
      retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 10), maxDelay),
    });
    this.client.on("ready", () => void this.#confirmReady());
    this.client.on("close", () => this.#setConnected(false));
    this.client.on("error", (error: Error) => {
      // A reply is Redis answering: the address is right, and pointing elsewhere would not help.
      const problem = error instanceof ReplyError ? "refused" : "unreachable";
      if (this.#warned === problem) return;
      this.#warned = problem;
      const at = redactCredentials(options.url);
      const message =
        problem === "refused"
          ? `Redis at ${at} refused the connection (${error.message}). Check the user, password and database number in REDIS_URL.`
          : `Redis is not reachable at ${at}. Set REDIS_URL=redis://host:port to point rollout-analytics at Redis.`;
      options.logger.warn({ redis: at, err: error.message }, message);
    });
  }

  /** Whether Redis is connected and answering now. */
  get ready(): boolean {
    return this.#ready;
  }

  /** Starts connecting in the background; never rejects (failures are retried). */
  start(): void {
    this.client.connect().catch(() => undefined);
  }

  /** Stops the liveness PINGs, closes the connection and stops retrying. */
  async close(): Promise<void> {
    this.#liveness?.stop();
    this.client.disconnect(false);
  }

  // The client reports ready even when Redis refused the URL's database (it then works in
  // database 0), so a connection counts as ready only once that database is selected.
  async #confirmReady(): Promise<void> {
    const db = this.client.options.db ?? 0;
    if (db !== 0) {
      const selected = await this.client.select(db).then(
        () => true,
        () => false,
      );
      // Redis refused the handshake's own SELECT too, and the error listener has that.
      if (!selected || this.client.status !== "ready") return;
    }
    this.#setConnected(true);
  }

  // Each connection gets its own liveness check, so a PING of a closed one changes nothing.
  #setConnected(connected: boolean): void {
    if (connected === this.#connected) return;
    this.#connected = connected;
    this.#liveness?.stop();
    this.#liveness = undefined;
    this.#responsive = true;
    if (connected) {
      this.#warned = undefined;
      this.options.logger.info({ redis: redactCredentials(this.options.url) }, "Redis connected");
      this.#liveness = new RedisLiveness({
        // An error reply is still an answer: Redis is not hung, and the error listener has the rest.
        ping: () =>
          this.client.ping().then(
            () => true,
            (error: unknown) => error instanceof ReplyError,
          ),
        intervalMs: this.#pingIntervalMs,
        timeoutMs: this.#pingTimeoutMs,
        onResponsiveChange: (responsive) => this.#setResponsive(responsive),
        onAnswered: this.options.onPingAnswered,
      });
    }
    this.#publish();
  }

  #setResponsive(responsive: boolean): void {
    this.#responsive = responsive;
    const at = redactCredentials(this.options.url);
    const timeoutMs = this.#pingTimeoutMs;
    // Logged at each change only: a hang spans many intervals, and its end is the one PING that answers.
    if (responsive) this.options.logger.info({ redis: at }, `Redis at ${at} answers again`);
    else
      this.options.logger.warn(
        { redis: at, timeoutMs },
        `Redis at ${at} is unresponsive: a PING got no answer within ${timeoutMs} ms though the connection is open. It counts as not ready until it answers.`,
      );
    this.#publish();
  }

  #publish(): void {
    const ready = this.#connected && this.#responsive;
    if (ready === this.#ready) return;
    this.#ready = ready;
    this.options.onReadyChange(ready);
  }
}
