import { text } from "@crs/runtime";

/** rollout-analytics' listen defaults; every variable is documented in the README. */
export const DEFAULTS = {
  grpcAddress: "127.0.0.1:50052",
  metricsAddress: "127.0.0.1:9465",
} as const;

/** The proto package of rollout-analytics, reported as `ErrorInfo.domain`. */
export const DOMAIN = "crs.analytics.v1";

/** rollout-analytics' own environment variables, beyond the runtime's common ones. */
export const ANALYTICS_ENV = {
  REDIS_URL: text("Redis holding the scan queue, redis://[user:password@]host:port[/db]", "redis://127.0.0.1:6379"),
};
