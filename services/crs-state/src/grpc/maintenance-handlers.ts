import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ServiceHandlers } from "@crs/runtime";
import {
  type GetProjectStatusResponseSchema,
  type JournalBackend,
  ProjectHealth,
  type MaintenanceService,
} from "@crs/contracts/gen/crs/state/v1/maintenance_pb";
import { oldestSnapshotGeneration, type ProjectHost, type ProjectSummary } from "../projects/index.js";
import { CrsStateError } from "../errors.js";
import { requireId } from "./ids.js";
import { pageSize } from "./page-token.js";
import { responseHeader } from "./reads.js";
import { indexSizesOut } from "./snapshot-mapper.js";

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
  /** The journal backend the host writes to. */
  readonly journalBackend: JournalBackend;
  /** The project store. */
  readonly host: ProjectHost;
}

/** Counts every project the store knows, page by page. */
async function knownProjects(host: ProjectHost): Promise<number> {
  let count = 0;
  let pageToken = "";
  do {
    const page = await host.list({ pageSize: 1000, pageToken });
    count += page.projects.length;
    pageToken = page.nextPageToken;
  } while (pageToken !== "");
  return count;
}

/** A listing row's health: what the host knows without loading the project. */
function rowHealth(p: ProjectSummary): ProjectHealth {
  if (p.state === "data_loss") return ProjectHealth.CORRUPTED;
  return p.loaded ? ProjectHealth.SERVING : ProjectHealth.CLOSED;
}

/** How often GetProjectStatus starts over when its project is created again mid-call. */
const STATUS_ATTEMPTS = 3;

/** One project's status: its storage facts, then its committed snapshot of the same incarnation. */
async function projectStatus(host: ProjectHost, projectId: string): Promise<MessageInitShape<typeof GetProjectStatusResponseSchema>> {
  const s = await host.status(projectId);
  const base = {
    projectId,
    projectUid: s.header.projectUid,
    generation: BigInt(s.header.generation),
    lastSnapshotGeneration: BigInt(s.lastSnapshotGeneration),
    journalTailRecords: BigInt(s.journalRecords),
    journalBytes: BigInt(s.journalBytes),
    corruptedRecordsSkipped: BigInt(s.corruptedRecordsSkipped),
  };
  if (s.state === "data_loss") return { header: responseHeader(s.header), status: { ...base, health: ProjectHealth.CORRUPTED } };
  // A write may commit between the storage facts and this read: the generation reported is the
  // one whose snapshot gave the index sizes, and the header names it.
  return host.read(
    projectId,
    (view) => ({
      header: responseHeader(view.header),
      status: {
        ...base,
        generation: BigInt(view.header.generation),
        oldestSnapshotGeneration: BigInt(oldestSnapshotGeneration(view)),
        lastChangeAtUnixMs: BigInt(view.snapshot.createdAt),
        indexSizes: indexSizesOut(view.snapshot),
        replacedGeneration: BigInt(view.snapshot.state.replacedGeneration),
        health: ProjectHealth.SERVING,
      },
    }),
    { expectedUid: s.header.projectUid },
  );
}

/** Server status, project listing and per-project storage facts. */
export function maintenanceHandlers(facts: ServerFacts): ServiceHandlers<typeof MaintenanceService.method> {
  const { host } = facts;
  return {
    async getStatus() {
      const now = facts.now();
      return {
        serverVersion: facts.version,
        apiVersion: "crs.state.v1",
        startedAtUnixMs: BigInt(facts.startedAtUnixMs),
        uptimeMs: BigInt(now - facts.startedAtUnixMs),
        journalBackend: facts.journalBackend,
        openProjects: host.loadedProjectIds().length,
        knownProjects: await knownProjects(host),
        draining: facts.draining(),
        nowUnixMs: BigInt(now),
      };
    },

    async listProjects(req) {
      const page = await host.list({ pageSize: pageSize(req.pageSize), pageToken: req.pageToken, openOnly: req.openOnly });
      return {
        projects: page.projects.map((p) => ({
          projectId: p.projectId,
          projectUid: p.projectUid,
          health: rowHealth(p),
          generation: BigInt(p.generation),
          lastChangeAtUnixMs: BigInt(p.lastChangeAt),
          ...(p.storage === undefined
            ? {}
            : {
                oldestSnapshotGeneration: BigInt(p.storage.oldestSnapshotGeneration),
                lastSnapshotGeneration: BigInt(p.storage.lastSnapshotGeneration),
                journalTailRecords: BigInt(p.storage.journalRecords),
                journalBytes: BigInt(p.storage.journalBytes),
              }),
        })),
        nextPageToken: page.nextPageToken,
      };
    },

    async getProjectStatus(req) {
      const projectId = requireId(req.projectId, "project_id");
      // The storage facts and the snapshot are read in two steps. A project deleted and created
      // again between them is asked about again, so no answer mixes two incarnations.
      for (let attempt = 1; ; attempt++) {
        try {
          return await projectStatus(host, projectId);
        } catch (e) {
          if (!(e instanceof CrsStateError && e.code === "PROJECT_UID_MISMATCH") || attempt >= STATUS_ATTEMPTS) throw e;
        }
      }
    },
  };
}
