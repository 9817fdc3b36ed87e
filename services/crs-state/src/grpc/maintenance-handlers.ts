import { requireId, type ServiceHandlers } from "@crs/runtime";
import { JournalBackend, type MaintenanceService } from "@crs/contracts/gen/crs/state/v1/maintenance_pb";
import { CrsStateError } from "../errors.js";

/** What the maintenance handlers read about the running server. */
export interface ServerFacts {
  /** The server's semantic version. */
  readonly version: string;
  /** Start time, Unix milliseconds. */
  readonly startedAtUnixMs: number;
  /** The clock, Unix milliseconds. */
  readonly now: () => number;
  /** True once shutdown has begun. */
  readonly draining: () => boolean;
  /** Ids of the projects this server holds, byte-wise sorted. */
  readonly projectIds: () => readonly string[];
}

/** Server status and project listing. No durable project store is attached yet, so none are held. */
export function maintenanceHandlers(facts: ServerFacts): ServiceHandlers<typeof MaintenanceService.method> {
  return {
    async getStatus() {
      const now = facts.now();
      const open = facts.projectIds().length;
      return {
        serverVersion: facts.version,
        apiVersion: "crs.state.v1",
        startedAtUnixMs: BigInt(facts.startedAtUnixMs),
        uptimeMs: BigInt(now - facts.startedAtUnixMs),
        journalBackend: JournalBackend.UNSPECIFIED,
        openProjects: open,
        knownProjects: open,
        draining: facts.draining(),
        nowUnixMs: BigInt(now),
      };
    },
    async getProjectStatus(request) {
      const id = requireId(request.projectId, "project_id");
      throw new CrsStateError("PROJECT_NOT_FOUND", `project ${id} does not exist`, { project_id: id });
    },
  };
}
