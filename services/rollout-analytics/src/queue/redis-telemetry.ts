/**
 * The Redis connection made visible to operators on the service's /metrics registry: whether
 * Redis counts as ready, and how long its liveness PINGs take to come back.
 */

import { Gauge, Histogram, type Registry } from "@crs/runtime";

/** The connection callbacks that feed the metrics. */
export interface RedisTelemetry {
  /** Pass as the connection's `onPingAnswered`. */
  readonly pingAnswered: (seconds: number) => void;
  /** Call with each readiness change the connection reports. */
  readonly readyChanged: (ready: boolean) => void;
}

/** Registers the Redis connection's metrics in `registry`; Redis reads as down until it connects. */
export function redisTelemetry(registry: Registry): RedisTelemetry {
  const registers = [registry];
  const up = new Gauge({
    name: "rollout_analytics_redis_up",
    help: "1 while Redis is connected and answering its liveness PINGs; 0 while it is unreachable, refuses REDIS_URL, or leaves a PING unanswered past REDIS_PING_TIMEOUT_MS.",
    registers,
  });
  up.set(0);
  const pingSeconds = new Histogram({
    name: "rollout_analytics_redis_ping_seconds",
    help: "Round trip of each answered liveness PING to Redis, late answers included.",
    // Up to the PING timeout's default and past it, so a slow Redis shows before it counts as down.
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
    registers,
  });
  return {
    pingAnswered: (seconds) => pingSeconds.observe(seconds),
    readyChanged: (ready) => up.set(ready ? 1 : 0),
  };
}
