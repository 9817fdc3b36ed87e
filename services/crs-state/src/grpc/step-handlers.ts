import type { ServiceHandlers } from "@crs/runtime";
import {
  EndSessionRequestSchema,
  EndSessionResponseSchema,
  RecordStepRequestSchema,
  RecordStepResponseSchema,
  type StepService,
} from "@crs/contracts/gen/crs/state/v1/step_pb";
import { CrsStateError } from "../errors.js";
import type { HandlerDeps } from "./deps.js";
import { optionalKey, requireId } from "./ids.js";
import { nested } from "./field-paths.js";
import { runMutation } from "./mutations.js";
import { readAt, readPage, responseHeader } from "./reads.js";
import { stepIn } from "./step-mapper.js";
import { stepOut } from "./value-mapper.js";

/** StepService: the per-session step log. */
export function stepHandlers({ host }: HandlerDeps): ServiceHandlers<typeof StepService.method> {
  return {
    async recordStep(req) {
      const projectId = requireId(req.projectId, "project_id");
      const step = stepIn(req.step);
      return runMutation(
        host,
        {
          method: "RecordStep",
          projectId,
          requestSchema: RecordStepRequestSchema,
          request: req,
          responseSchema: RecordStepResponseSchema,
          fieldPath: nested("step"),
        },
        (engine, options) => engine.recordStep(step, options),
        (stored, header) => ({ header: responseHeader(header), step: stepOut(stored) }),
      );
    },

    async listSteps(req) {
      requireId(req.projectId, "project_id");
      const sessionId = requireId(req.sessionId, "session_id");
      const filters = { sessionId, actor: req.actor, outcome: req.outcome };
      const page = await readPage(host, req, "listSteps", filters, (snapshot) =>
        snapshot.steps
          .history(sessionId)
          .filter((s) => (req.actor === "" || s.actor === req.actor) && (req.outcome === "" || s.outcome === req.outcome)),
      );
      return { header: page.header, steps: page.rows.map(stepOut), nextPageToken: page.nextPageToken, totalSize: BigInt(page.total) };
    },

    async getLastStep(req) {
      const projectId = requireId(req.projectId, "project_id");
      const sessionId = requireId(req.sessionId, "session_id");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => {
        const step = snapshot.steps.last(sessionId);
        if (step === undefined)
          throw new CrsStateError("STEP_NOT_FOUND", `session ${sessionId} has no step`, { field: "session_id", session_id: sessionId });
        return { header, step: stepOut(step) };
      });
    },

    async countToolExecutions(req) {
      const projectId = requireId(req.projectId, "project_id");
      const sessionId = requireId(req.sessionId, "session_id");
      const tool = optionalKey(req.tool, "tool");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => ({
        header,
        count: BigInt(snapshot.steps.countToolExecutions(sessionId, tool)),
      }));
    },

    async listSessions(req) {
      requireId(req.projectId, "project_id");
      const page = await readPage(host, req, "listSessions", "sessions", (snapshot) =>
        snapshot.steps.sessions().map((sessionId) => {
          const steps = snapshot.steps.history(sessionId);
          return {
            sessionId,
            stepCount: BigInt(steps.length),
            firstStepAtUnixMs: BigInt(steps[0]?.timestamp ?? 0),
            lastStepAtUnixMs: BigInt(steps.at(-1)?.timestamp ?? 0),
          };
        }),
      );
      return { header: page.header, sessions: page.rows, nextPageToken: page.nextPageToken };
    },

    async endSession(req) {
      const projectId = requireId(req.projectId, "project_id");
      const sessionId = requireId(req.sessionId, "session_id");
      let stepsRemoved = 0;
      return runMutation(
        host,
        { method: "EndSession", projectId, requestSchema: EndSessionRequestSchema, request: req, responseSchema: EndSessionResponseSchema },
        (engine, options) => {
          stepsRemoved = engine.snapshot().steps.history(sessionId).length;
          return engine.endSession(sessionId, options);
        },
        (removed, header) => ({ header: responseHeader(header), stepsRemoved: BigInt(stepsRemoved), removedClauseIds: [...removed] }),
      );
    },
  };
}
