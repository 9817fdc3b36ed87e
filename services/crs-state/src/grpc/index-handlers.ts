import type { ServiceHandlers } from "@crs/runtime";
import type { IndexService } from "@crs/contracts/gen/crs/state/v1/index_pb";
import { SignalSource } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { StateError } from "@crs/domain/state";
import type { HandlerDeps } from "./deps.js";
import { constraintTypes, sources } from "./enum-mapper.js";
import { optionalKey, requireId, requireKey, requireKeys, requireTextAtMost } from "./ids.js";
import { readAt, readPage } from "./reads.js";
import { streamingSummaryOut } from "./snapshot-mapper.js";
import { analyticsOut, constraintOut, edgeOut, historyEntryOut } from "./value-mapper.js";

/** Most direct neighbours GetNodeDependencies lists per direction. */
export const MAX_DEPENDENCIES_LISTED = 1000;

/** IndexService: reads of the constraint, dependency, history, streaming and analytics indexes. */
export function indexHandlers({ host }: HandlerDeps): ServiceHandlers<typeof IndexService.method> {
  return {
    async getConstraint(req) {
      const projectId = requireId(req.projectId, "project_id");
      const id = requireKey(req.constraintId, "constraint_id");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => {
        const c = snapshot.constraints.get(id);
        if (c === undefined) throw new StateError("CONSTRAINT_NOT_FOUND", `constraint ${id} does not exist`, { field: "constraint_id" });
        return { header, constraint: constraintOut(snapshot, c) };
      });
    },

    async listConstraints(req) {
      requireId(req.projectId, "project_id");
      const type = constraintTypes.toDomain(req.type, "type");
      const nodeId = optionalKey(req.nodeId, "node_id");
      const page = await readPage(host, req, "listConstraints", { type, nodeId }, (snapshot) =>
        snapshot.constraints.all().filter((c) => (type === "unknown" || c.type === type) && (nodeId === "" || c.nodes.includes(nodeId))),
      );
      return {
        header: page.header,
        constraints: page.rows.map((c) => constraintOut(page.snapshot, c)),
        nextPageToken: page.nextPageToken,
        totalSize: BigInt(page.total),
      };
    },

    async listDependencyEdges(req) {
      requireId(req.projectId, "project_id");
      const page = await readPage(host, req, "listDependencyEdges", "edges", (snapshot) => snapshot.dependency.allEdges());
      return { header: page.header, edges: page.rows.map(edgeOut), nextPageToken: page.nextPageToken, totalSize: BigInt(page.total) };
    },

    async getNodeDependencies(req) {
      const projectId = requireId(req.projectId, "project_id");
      const nodeId = requireKey(req.nodeId, "node_id");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => {
        const dependsOn = snapshot.dependency.dependsOn(nodeId);
        const dependedBy = snapshot.dependency.dependedBy(nodeId);
        return {
          header,
          dependsOn: dependsOn.slice(0, MAX_DEPENDENCIES_LISTED),
          dependedBy: dependedBy.slice(0, MAX_DEPENDENCIES_LISTED),
          dependsOnCount: BigInt(dependsOn.length),
          dependedByCount: BigInt(dependedBy.length),
          truncated: dependsOn.length > MAX_DEPENDENCIES_LISTED || dependedBy.length > MAX_DEPENDENCIES_LISTED,
        };
      });
    },

    async listHistoryEntries(req) {
      requireId(req.projectId, "project_id");
      const nodeId = optionalKey(req.nodeId, "node_id");
      const source = sources.toDomain(req.source, "source");
      const filters = { nodeId, source: req.source === SignalSource.UNSPECIFIED ? "" : source, recent: req.recent };
      const page = await readPage(host, req, "listHistoryEntries", filters, (snapshot) => {
        const all = nodeId === "" ? snapshot.history.recent(snapshot.history.size()) : snapshot.history.trace(nodeId);
        const matching = req.source === SignalSource.UNSPECIFIED ? all : all.filter((e) => e.source === source);
        return req.recent > 0 ? matching.slice(-req.recent) : matching;
      });
      return {
        header: page.header,
        entries: page.rows.map(historyEntryOut),
        nextPageToken: page.nextPageToken,
        totalSize: BigInt(page.total),
      };
    },

    async getStreamingEstimates(req) {
      const projectId = requireId(req.projectId, "project_id");
      const items = requireKeys(req.items, "items");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => ({
        header,
        estimates: items.map((item) => ({ item, estimate: BigInt(snapshot.streaming.estimate(item)) })),
        summary: streamingSummaryOut(snapshot),
      }));
    },

    async listAnalyticsRecords(req) {
      requireId(req.projectId, "project_id");
      const queryType = requireTextAtMost(req.queryType, 512, "query_type");
      const page = await readPage(host, req, "listAnalyticsRecords", { queryType }, (snapshot) =>
        snapshot.analytics
          .all()
          .filter((r) => queryType === "" || r.queryType === queryType)
          .reverse(),
      );
      return { header: page.header, records: page.rows.map(analyticsOut), nextPageToken: page.nextPageToken };
    },
  };
}
