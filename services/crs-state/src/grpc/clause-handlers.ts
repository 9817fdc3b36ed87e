import type { ServiceHandlers } from "@crs/runtime";
import { invalidArgument, requireSafeCount } from "@crs/runtime";
import {
  AddClauseRequestSchema,
  AddClauseResponseSchema,
  CheckDecisionAllowedRequestSchema,
  CheckDecisionAllowedResponseSchema,
  GarbageCollectClausesRequestSchema,
  GarbageCollectClausesResponseSchema,
  type ClauseService,
} from "@crs/contracts/gen/crs/state/v1/clause_pb";
import type { Clause as WireClause } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { ClauseScope } from "@crs/contracts/gen/crs/state/v1/types_pb";
import { StateError, closedWorldAssignment, compareUtf8, explicitAssignment, type ClauseInput } from "@crs/domain/state";
import type { HandlerDeps } from "./deps.js";
import { scopeToDomain, sources } from "./enum-mapper.js";
import { optionalId, requireAtMost, requireId, requireKey, requireTextAtMost } from "./ids.js";
import { nested } from "./field-paths.js";
import { runMutation } from "./mutations.js";
import { readAt, readPage, responseHeader } from "./reads.js";
import { clauseOut } from "./value-mapper.js";

/** Most literals one clause may have. */
export const MAX_LITERALS = 1000;
/** Most variables one assignment may have. */
export const MAX_ASSIGNMENT = 10_000;

function clauseIn(c: WireClause | undefined): ClauseInput {
  if (c === undefined) throw invalidArgument("clause", "is required");
  requireAtMost(c.literals, MAX_LITERALS, "clause.literals");
  return {
    id: requireKey(c.id, "clause.id"),
    literals: c.literals.map((l, i) => ({
      variable: requireTextAtMost(l.variable, 512, `clause.literals[${i}].variable`),
      negated: l.negated,
    })),
    source: sources.toDomain(c.source, "clause.source"),
    failureType: requireTextAtMost(c.failureType, 128, "clause.failure_type"),
    scope: scopeToDomain(c.scope, "clause.scope"),
    sessionId: optionalId(c.sessionId, "clause.session_id"),
    learnedAt: requireSafeCount(c.learnedAtUnixMs, "clause.learned_at_unix_ms"),
  };
}

/** ClauseService: learned clauses, decision checks and collection. */
export function clauseHandlers({ host }: HandlerDeps): ServiceHandlers<typeof ClauseService.method> {
  return {
    async addClause(req) {
      const projectId = requireId(req.projectId, "project_id");
      const input = clauseIn(req.clause);
      return runMutation(
        host,
        {
          method: "AddClause",
          projectId,
          requestSchema: AddClauseRequestSchema,
          request: req,
          responseSchema: AddClauseResponseSchema,
          fieldPath: nested("clause"),
        },
        (engine, options) => {
          const m = engine.addClause(input, options);
          return { ...m, result: { ...m.result, wire: clauseOut(engine.snapshot(), m.result.clause) } };
        },
        (r, header) => ({
          header: responseHeader(header),
          clause: r.wire,
          duplicate: r.outcome === "refreshed",
          evictedClauseId: r.evicted ?? "",
          expiredClauseIds: [...r.expired],
        }),
      );
    },

    async getClause(req) {
      const projectId = requireId(req.projectId, "project_id");
      const clauseId = requireKey(req.clauseId, "clause_id");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => {
        const clause = snapshot.constraints.getClause(clauseId);
        if (clause === undefined) throw new StateError("CLAUSE_NOT_FOUND", `clause ${clauseId} does not exist`, { field: "clause_id" });
        return { header, clause: clauseOut(snapshot, clause) };
      });
    },

    async listClauses(req) {
      requireId(req.projectId, "project_id");
      const sessionId = optionalId(req.sessionId, "session_id");
      const scope = req.scope === ClauseScope.UNSPECIFIED ? undefined : scopeToDomain(req.scope, "scope");
      const page = await readPage(host, req, "listClauses", { sessionId, scope: scope ?? "" }, (snapshot) =>
        snapshot.constraints
          .allClauses()
          .filter((c) => (sessionId === "" || c.sessionId === sessionId) && (scope === undefined || c.scope === scope))
          .sort((a, b) => a.learnedAt - b.learnedAt || compareUtf8(a.id, b.id)),
      );
      return {
        header: page.header,
        clauses: page.rows.map((c) => clauseOut(page.snapshot, c)),
        nextPageToken: page.nextPageToken,
        totalSize: BigInt(page.total),
      };
    },

    async checkDecisionAllowed(req) {
      const projectId = requireId(req.projectId, "project_id");
      const sessionId = requireId(req.sessionId, "session_id");
      const tool = requireKey(req.tool, "tool");
      return runMutation(
        host,
        {
          method: "CheckDecisionAllowed",
          projectId,
          requestSchema: CheckDecisionAllowedRequestSchema,
          request: req,
          responseSchema: CheckDecisionAllowedResponseSchema,
        },
        (engine, options) => {
          const m = engine.checkDecisionAllowed(sessionId, tool, options);
          const clause = m.result.clause;
          return { ...m, result: { ...m.result, wire: clause === undefined ? undefined : clauseOut(engine.snapshot(), clause) } };
        },
        (r, header) => ({
          header: responseHeader(header),
          allowed: r.allowed,
          reason: r.reason,
          ...(r.wire === undefined ? {} : { violatedClause: r.wire }),
        }),
      );
    },

    async checkAssignment(req) {
      const projectId = requireId(req.projectId, "project_id");
      requireAtMost(req.assignments, MAX_ASSIGNMENT, "assignments");
      const values = new Map<string, boolean>();
      req.assignments.forEach((a, i) => {
        const variable = requireTextAtMost(a.variable, 512, `assignments[${i}].variable`);
        if (variable === "") throw invalidArgument(`assignments[${i}].variable`, "is required");
        if (values.has(variable)) throw invalidArgument(`assignments[${i}].variable`, `${variable} is assigned twice`);
        values.set(variable, a.value);
      });
      const assignment = req.closedWorld
        ? closedWorldAssignment([...values].filter(([, v]) => v).map(([k]) => k))
        : explicitAssignment(values);
      return readAt(host, projectId, req.atGeneration, ({ snapshot, view, header }) => {
        // At the server's time, whatever the generation read: an expired clause stops binding when its TTL passes.
        const check = snapshot.constraints.checkAssignment(assignment, view.engine.now());
        const clause = check.violatedClause;
        return {
          header,
          conflict: check.conflict,
          reason: check.reason,
          ...(clause === undefined ? {} : { violatedClause: clauseOut(snapshot, clause) }),
        };
      });
    },

    async garbageCollectClauses(req) {
      const projectId = requireId(req.projectId, "project_id");
      return runMutation(
        host,
        {
          method: "GarbageCollectClauses",
          projectId,
          requestSchema: GarbageCollectClausesRequestSchema,
          request: req,
          responseSchema: GarbageCollectClausesResponseSchema,
        },
        (engine, options) => engine.garbageCollectClauses(options),
        (removed, header) => ({ header: responseHeader(header), removedClauseIds: [...removed] }),
      );
    },
  };
}
