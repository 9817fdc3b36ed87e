import { credentials, status } from "@grpc/grpc-js";
import { createClient } from "@crs/runtime";
import { Health } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { MaintenanceService } from "@crs/contracts/gen/crs/state/v1/maintenance_pb";
import { ScanService } from "@crs/contracts/gen/crs/analytics/v1/scan_pb";
import { RolloutService } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";

const insecure = { credentials: credentials.createInsecure() };

/** A health client of the server on `port`. */
export const healthClient = (port: number) => createClient(Health, `127.0.0.1:${port}`, insecure);
/** A crs-state maintenance client of the server on `port`. */
export const maintenanceClient = (port: number) => createClient(MaintenanceService, `127.0.0.1:${port}`, insecure);
/** A rollout-analytics scan client of the server on `port`. */
export const scanClient = (port: number) => createClient(ScanService, `127.0.0.1:${port}`, insecure);

/** A rollout-analytics rollout client of the server on `port`. */
export const rolloutClient = (port: number) => createClient(RolloutService, `127.0.0.1:${port}`, insecure);

/** Whether rollout-analytics on `port` answers scan calls; health must not vouch for the scan service until it does. */
export async function scanServiceServes(port: number): Promise<boolean> {
  const scans = scanClient(port);
  try {
    return await scans.listScans({ projectId: "probe" }, { deadline: 5000 }).then(
      () => true,
      (e: { code: status }) => e.code !== status.UNIMPLEMENTED,
    );
  } finally {
    scans.close();
  }
}
