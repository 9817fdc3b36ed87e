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
  /** The largest message the server sends (GRPC_MAX_MESSAGE_BYTES). */
  readonly maxMessageBytes: number;
}

/**
 * Registers every crs.analytics.v1 service. ScanService is not served until its queue is built:
 * every method answers UNIMPLEMENTED with reason UNIMPLEMENTED (after the token check) and it
 * reports NOT_SERVING whatever Redis does; its health is already wired to the Redis connection for
 * when it serves.
 */
export function registerServices(server: GrpcServer, options: RegisterOptions): void {
  server.add(ScanService, {}, { mapError, managedHealth: true, served: false });
  server.add(RolloutService, rolloutHandlers(options), { mapError });
  server.add(RetentionService, retentionHandlers(), { mapError });
}

/** The service whose health will track the Redis connection once it serves calls. */
export const QUEUE_BACKED_SERVICE = ScanService.typeName;
export { mapError, reasons, STATUS_OF } from "./status-map.js";

export { scanReportOf, type ScanReport, type ScanReportOptions } from "./scan-result-mapper.js";
