import { credentials } from "@grpc/grpc-js";
import { createClient } from "@crs/runtime";
import { Health } from "@crs/contracts/gen/grpc/health/v1/health_pb";
import { MaintenanceService } from "@crs/contracts/gen/crs/state/v1/maintenance_pb";

const insecure = { credentials: credentials.createInsecure() };

/** A health client of the server on `port`. */
export const healthClient = (port: number) => createClient(Health, `127.0.0.1:${port}`, insecure);
/** A crs-state maintenance client of the server on `port`. */
export const maintenanceClient = (port: number) => createClient(MaintenanceService, `127.0.0.1:${port}`, insecure);
