import type { GrpcServer, Logger } from "@crs/runtime";
import { RetentionService } from "@crs/contracts/gen/crs/analytics/v1/retention_pb";
import { RolloutService } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";
import { ScanService } from "@crs/contracts/gen/crs/analytics/v1/scan_pb";
import type { UploadLimits } from "../upload/index.js";
import { mapError } from "./status-map.js";
import { retentionHandlers } from "./retention-handlers.js";
import { rolloutHandlers } from "./rollout-handlers.js";

/** What the handlers need from the running service. */
export interface RegisterOptions {
  readonly limits: UploadLimits;
  readonly logger: Logger;
}

/**
 * Registers every crs.analytics.v1 service. ScanService depends on Redis, so its health follows
 * the queue connection; methods without handlers answer UNIMPLEMENTED.
 */
export function registerServices(server: GrpcServer, options: RegisterOptions): void {
  server.add(ScanService, {}, { mapError, managedHealth: true });
  server.add(RolloutService, rolloutHandlers(options), { mapError });
  server.add(RetentionService, retentionHandlers(), { mapError });
}

/** The service whose health tracks the Redis connection. */
export const QUEUE_BACKED_SERVICE = ScanService.typeName;
export { mapError, reasons, STATUS_OF } from "./status-map.js";

export { scanReportOf, type ScanReport, type ScanReportOptions } from "./scan-result-mapper.js";
