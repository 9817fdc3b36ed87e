import type { ServiceHandlers } from "@crs/runtime";
import { invalidArgument } from "@crs/runtime";
import type { QueryService } from "@crs/contracts/gen/crs/state/v1/query_pb";
import { StateError, type ProofNumber, type Snapshot } from "@crs/domain/state";
import type { HandlerDeps } from "./deps.js";
import { constraintTypes, sources, statuses } from "./enum-mapper.js";
import { requireId, requireKey } from "./ids.js";
import { readAt, readPage } from "./reads.js";
import { requireK } from "./similarity-handlers.js";
import { constraintOut, historyEntryOut, proofEntryOut, proofNumberOut } from "./value-mapper.js";

/** Most constraint ids GetNodeStats lists. */
export const MAX_NODE_CONSTRAINTS_LISTED = 1000;

/** Most nodes of a path FindDependencyChain lists. */
export const MAX_CHAIN_LISTED = 1000;

type IdQuery = "findProvenNodes" | "findDisprovenNodes" | "findUnexploredNodes";

/** QueryService: cross-index questions over one snapshot. */
export function queryHandlers({ host }: HandlerDeps): ServiceHandlers<typeof QueryService.method> {
  const idPage =
    (name: IdQuery) => async (req: { projectId: string; atGeneration?: bigint | undefined; pageSize: number; pageToken: string }) => {
      requireId(req.projectId, "project_id");
      const page = await readPage(host, req, name, name, (snapshot) => snapshot.query()[name]());
      return { header: page.header, nodeIds: page.rows, nextPageToken: page.nextPageToken };
    };
  const proofOf = (snapshot: Snapshot, id: string) => proofEntryOut(snapshot, id, snapshot.proof.get(id) as ProofNumber);
  return {
    findProvenNodes: idPage("findProvenNodes"),
    findDisprovenNodes: idPage("findDisprovenNodes"),
    findUnexploredNodes: idPage("findUnexploredNodes"),

    async findByProofRange(req) {
      requireId(req.projectId, "project_id");
      if (req.minProof > req.maxProof) throw invalidArgument("max_proof", "must not be below min_proof");
      const page = await readPage(host, req, "findByProofRange", { min: req.minProof, max: req.maxProof }, (snapshot) =>
        snapshot.query().findByProofRange(req.minProof, req.maxProof),
      );
      return { header: page.header, entries: page.rows.map((id) => proofOf(page.snapshot, id)), nextPageToken: page.nextPageToken };
    },

    async findConstrainedNodes(req) {
      requireId(req.projectId, "project_id");
      const type = constraintTypes.toDomain(req.type, "type");
      const page = await readPage(host, req, "findConstrainedNodes", { type }, (snapshot) => snapshot.query().findConstrainedNodes(type));
      return { header: page.header, nodeIds: page.rows, nextPageToken: page.nextPageToken };
    },

    async findViolatedConstraints(req) {
      requireId(req.projectId, "project_id");
      const page = await readPage(host, req, "findViolatedConstraints", "violated", (snapshot) =>
        snapshot.query().findViolatedConstraints(),
      );
      return { header: page.header, constraints: page.rows.map((c) => constraintOut(page.snapshot, c)), nextPageToken: page.nextPageToken };
    },

    async findSimilarWithProofStatus(req) {
      const projectId = requireId(req.projectId, "project_id");
      const nodeId = requireKey(req.nodeId, "node_id");
      const status = statuses.toDomain(req.status, "status");
      const k = requireK(req.k, "k");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => ({
        header,
        nodes: snapshot
          .query()
          .findSimilarWithProofStatus(nodeId, status, k)
          .map((n) => ({
            nodeId: n.id,
            distance: n.distance,
            proof: proofNumberOut(snapshot.proof.get(n.id) as ProofNumber, BigInt(snapshot.modGeneration("proof", n.id))),
          })),
      }));
    },

    async findDependencyChain(req) {
      const projectId = requireId(req.projectId, "project_id");
      const from = requireKey(req.fromId, "from_id");
      const to = requireKey(req.toId, "to_id");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => {
        const path = snapshot.query().findDependencyChain(from, to);
        return {
          header,
          path: path.slice(0, MAX_CHAIN_LISTED),
          truncated: path.length > MAX_CHAIN_LISTED,
          pathLength: BigInt(path.length),
        };
      });
    },

    async findAffectedByNode(req) {
      requireId(req.projectId, "project_id");
      const nodeId = requireKey(req.nodeId, "node_id");
      const page = await readPage(host, req, "findAffectedByNode", { nodeId }, (snapshot) => snapshot.query().findAffectedByNode(nodeId));
      return { header: page.header, nodeIds: page.rows, nextPageToken: page.nextPageToken };
    },

    async findHotNodes(req) {
      const projectId = requireId(req.projectId, "project_id");
      const limit = requireK(req.limit, "limit");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => ({
        header,
        nodes: snapshot
          .query()
          .findHotNodes(limit)
          .map((h) => ({ nodeId: h.nodeId, frequency: BigInt(h.frequency) })),
      }));
    },

    async findRecentDecisions(req) {
      const projectId = requireId(req.projectId, "project_id");
      const limit = requireK(req.limit, "limit");
      const source = sources.toDomain(req.source, "source");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => ({
        header,
        entries: snapshot.query().findRecentDecisions(limit, source).map(historyEntryOut),
      }));
    },

    async getNodeStats(req) {
      const projectId = requireId(req.projectId, "project_id");
      const nodeId = requireKey(req.nodeId, "node_id");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => {
        const stats = snapshot.query().nodeStats(nodeId);
        if (stats === undefined) throw new StateError("NODE_NOT_FOUND", `no index knows node ${nodeId}`, { field: "node_id" });
        return {
          header,
          stats: {
            hasProof: stats.proof !== undefined,
            ...(stats.proof === undefined ? {} : { proof: proofNumberOut(stats.proof, BigInt(snapshot.modGeneration("proof", nodeId))) }),
            constraintCount: stats.constraintIds.length,
            constraintIds: stats.constraintIds.slice(0, MAX_NODE_CONSTRAINTS_LISTED),
            similarNodeCount: stats.similarNodeCount,
            nearestNeighbor: stats.nearestNeighbor?.id ?? "",
            nearestDistance: stats.nearestNeighbor?.distance ?? 0,
            dependsOnCount: stats.dependsOnCount,
            dependedByCount: stats.dependedByCount,
            hasCycle: stats.hasCycle,
            historyEntryCount: stats.historyEntryCount,
            lastAction: stats.lastAction?.action ?? "",
            lastActionAtUnixMs: BigInt(stats.lastAction?.timestamp ?? 0),
            accessFrequency: BigInt(stats.accessFrequency),
            truncated: stats.constraintIds.length > MAX_NODE_CONSTRAINTS_LISTED,
          },
        };
      });
    },
  };
}
