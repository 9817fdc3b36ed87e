import { integer, url } from "@crs/runtime";

const MiB = 1024 * 1024;
// Node fires a timer set beyond this at once, which would turn a long ping interval into a flood.
const TIMER_MAX_MS = 2 ** 31 - 1;

/** rollout-analytics' listen defaults; every variable is documented in the README. */
export const DEFAULTS = {
  grpcAddress: "127.0.0.1:50052",
  metricsAddress: "127.0.0.1:9465",
} as const;

/** How often the Redis connection is pinged while open, and how long a PING may go unanswered. */
export const REDIS_LIVENESS = { pingIntervalMs: 5_000, pingTimeoutMs: 2_000 } as const;

/** rollout-analytics' own environment variables, beyond the runtime's common ones. */
export const ANALYTICS_ENV = {
  REDIS_URL: url(
    "Redis for the scan queue to come (only checked until it is built), redis://[user:password@]host:port[/db]",
    "redis://127.0.0.1:6379",
    ["redis", "rediss"],
    // The client would read any other path as database 0 (or a number Redis refuses) and still report itself connected.
    { pattern: /^\/?(?:\d{1,9})?$/, expected: "with at most a database number as its path (redis://host:port/2)" },
  ),
  REDIS_PING_INTERVAL_MS: integer(
    "pause between liveness PINGs to Redis while connected, in milliseconds",
    REDIS_LIVENESS.pingIntervalMs,
    100,
    TIMER_MAX_MS,
  ),
  REDIS_PING_TIMEOUT_MS: integer(
    "how long a PING may go unanswered before Redis counts as not ready, in milliseconds",
    REDIS_LIVENESS.pingTimeoutMs,
    100,
    TIMER_MAX_MS,
  ),
  MAX_ROLLOUT_BYTES: integer("largest rollout AnalyzeRollout accepts, in bytes (declared or received)", 256 * MiB, 1),
  // A line becomes one JavaScript string, which V8 caps just under 512 Mi characters.
  MAX_LINE_BYTES: integer("longest JSONL line AnalyzeRollout accepts, in bytes", 64 * MiB, 1, 512 * MiB - 64),
};
