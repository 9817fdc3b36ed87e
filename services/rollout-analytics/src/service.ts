import type { ServiceDefinition } from "@crs/runtime";
import { crsAnalyticsFiles } from "@crs/contracts";
import { ANALYTICS_ENV, DEFAULTS } from "./config/index.js";
import { QUEUE_BACKED_SERVICE, reasons, registerServices } from "./grpc/index.js";
import { RedisConnection } from "./queue/redis-connection.js";
import { redisTelemetry } from "./queue/redis-telemetry.js";

/** rollout-analytics as a runnable service: configuration, contracts, handlers and the Redis connection of the queue to come. */
export const rolloutAnalytics: ServiceDefinition<typeof ANALYTICS_ENV> = {
  name: "rollout-analytics",
  reasons,
  defaults: DEFAULTS,
  env: ANALYTICS_ENV,
  files: crsAnalyticsFiles,
  setup: async ({ config, logger, server }) => {
    registerServices(server, {
      logger,
      limits: { maxRolloutBytes: config.MAX_ROLLOUT_BYTES, maxLineBytes: config.MAX_LINE_BYTES },
      maxMessageBytes: config.GRPC_MAX_MESSAGE_BYTES,
    });
    const telemetry = redisTelemetry(server.metrics.registry);
    const redis = new RedisConnection({
      url: config.REDIS_URL,
      logger,
      pingIntervalMs: config.REDIS_PING_INTERVAL_MS,
      pingTimeoutMs: config.REDIS_PING_TIMEOUT_MS,
      onPingAnswered: telemetry.pingAnswered,
      onReadyChange: (ready) => {
        telemetry.readyChanged(ready);
        // The runtime keeps an unserved service NOT_SERVING, so this counts once ScanService serves.
        if (!server.draining) server.setHealth(QUEUE_BACKED_SERVICE, ready ? "SERVING" : "NOT_SERVING");
      },
    });
    redis.start();
    return () => redis.close();
  },
};
