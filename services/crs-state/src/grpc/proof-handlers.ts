import type { ServiceHandlers } from "@crs/runtime";
import { invalidArgument } from "@crs/runtime";
import {
  PropagateDisproofRequestSchema,
  PropagateDisproofResponseSchema,
  UpdateProofNumberRequestSchema,
  UpdateProofNumberResponseSchema,
  type ProofService,
} from "@crs/contracts/gen/crs/state/v1/proof_pb";
import { checkCircuitBreaker, circuitBreakerThreshold, toolNodeId, type ProofNumber, type ProofStatus } from "@crs/domain/state";
import type { HandlerDeps } from "./deps.js";
import { statuses, sources, updateTypes } from "./enum-mapper.js";
import { requireAtMost, requireId, requireKey, requireKeys, requireTextAtMost } from "./ids.js";
import { nested } from "./field-paths.js";
import { runMutation } from "./mutations.js";
import { readAt, readPage, responseHeader } from "./reads.js";
import { proofEntryOut, proofNumberOut } from "./value-mapper.js";

/** Most updated entries a propagation answer lists. */
export const MAX_PROPAGATION_LISTED = 1000;

/** ProofService: proof numbers, circuit breakers and disproof propagation. */
export function proofHandlers({ host }: HandlerDeps): ServiceHandlers<typeof ProofService.method> {
  return {
    async updateProofNumber(req) {
      const projectId = requireId(req.projectId, "project_id");
      const u = req.update;
      if (u === undefined) throw invalidArgument("update", "is required");
      const update = {
        nodeId: requireKey(u.nodeId, "update.node_id"),
        type: updateTypes.toDomain(u.type, "update.type"),
        delta: u.delta,
        reason: requireTextAtMost(u.reason, 4096, "update.reason"),
        source: sources.toDomain(u.source, "update.source"),
      };
      return runMutation(
        host,
        {
          method: "UpdateProofNumber",
          fieldPath: nested("update"),
          projectId,
          requestSchema: UpdateProofNumberRequestSchema,
          request: req,
          responseSchema: UpdateProofNumberResponseSchema,
        },
        (engine, options) => engine.updateProof(update, options),
        (value: ProofNumber, header) => ({ header: responseHeader(header), value: proofNumberOut(value, BigInt(header.generation)) }),
      );
    },

    async getProofStatus(req) {
      const projectId = requireId(req.projectId, "project_id");
      const ids = [...new Set(requireKeys(req.nodeIds, "node_ids"))];
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => {
        const entries = [];
        const missing = [];
        for (const id of ids) {
          const value = snapshot.proof.get(id);
          if (value === undefined) missing.push(id);
          else entries.push(proofEntryOut(snapshot, id, value));
        }
        return { header, entries, missingNodeIds: missing };
      });
    },

    async listProofNumbers(req) {
      requireId(req.projectId, "project_id");
      const wanted = new Set<ProofStatus>(requireAtMost(req.statuses, 4, "statuses").map((s, i) => statuses.toDomain(s, `statuses[${i}]`)));
      const prefix = req.nodeIdPrefix;
      const page = await readPage(host, req, "listProofNumbers", { statuses: [...wanted].sort(), prefix }, (snapshot) =>
        snapshot.proof.all().filter((e) => (wanted.size === 0 || wanted.has(e.status)) && e.nodeId.startsWith(prefix)),
      );
      return {
        header: page.header,
        entries: page.rows.map((e) => proofEntryOut(page.snapshot, e.nodeId, e)),
        nextPageToken: page.nextPageToken,
        totalSize: BigInt(page.total),
      };
    },

    async checkCircuitBreaker(req) {
      const projectId = requireId(req.projectId, "project_id");
      const sessionId = requireId(req.sessionId, "session_id");
      const tool = requireKey(req.tool, "tool");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => {
        // Everything from the generation read: its steps, its proof entries and its thresholds.
        const { config } = snapshot.state;
        const verdict = checkCircuitBreaker(snapshot.state, config, { sessionId, tool });
        const count = snapshot.steps.countToolExecutions(sessionId, tool);
        const threshold = circuitBreakerThreshold(config, tool);
        return {
          header,
          shouldFire: verdict.shouldFire,
          reason: verdict.reason,
          proofNumber: verdict.proofNumber,
          status: statuses.toProto(verdict.status),
          nodeId: toolNodeId(sessionId, tool),
          executionCount: BigInt(count),
          threshold: BigInt(threshold),
        };
      });
    },

    async propagateDisproof(req) {
      const projectId = requireId(req.projectId, "project_id");
      const nodeId = requireKey(req.nodeId, "node_id");
      return runMutation(
        host,
        {
          method: "PropagateDisproof",
          projectId,
          requestSchema: PropagateDisproofRequestSchema,
          request: req,
          responseSchema: PropagateDisproofResponseSchema,
        },
        (engine, options) => {
          const m = engine.propagateDisproof(nodeId, options);
          const snapshot = engine.snapshot();
          const listed = m.result
            .slice(0, MAX_PROPAGATION_LISTED)
            .map((id) => proofEntryOut(snapshot, id, snapshot.proof.get(id) as ProofNumber));
          return { ...m, result: { affected: m.result.length, listed } };
        },
        (r, header) => ({
          header: responseHeader(header),
          nodesUpdated: r.affected,
          updated: r.listed,
          truncated: r.affected > r.listed.length,
        }),
      );
    },
  };
}
