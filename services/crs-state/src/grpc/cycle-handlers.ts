import type { ServiceHandlers } from "@crs/runtime";
import {
  CheckCycleRequestSchema,
  CheckCycleResponseSchema,
  ResetCycleDetectorRequestSchema,
  ResetCycleDetectorResponseSchema,
  type CycleService,
} from "@crs/contracts/gen/crs/state/v1/cycle_pb";
import { analyzeSessionCycles } from "@crs/domain/state";
import { cycleRecordAdmission } from "./change-size.js";
import type { HandlerDeps } from "./deps.js";
import { requireId, requireKey } from "./ids.js";
import { runMutation } from "./mutations.js";
import { readAt, responseHeader } from "./reads.js";
import { stepOut } from "./value-mapper.js";

/** Most cyclic components one analysis lists. */
export const MAX_SCCS_LISTED = 1000;
/** Most members listed of one cyclic component. */
export const MAX_SCC_MEMBERS_LISTED = 1000;

/** CycleService: Brent detectors kept as state, and Tarjan analysis of a session. */
export function cycleHandlers({ host, maxMessageBytes }: HandlerDeps): ServiceHandlers<typeof CycleService.method> {
  return {
    async checkCycle(req) {
      const projectId = requireId(req.projectId, "project_id");
      const sessionId = requireId(req.sessionId, "session_id");
      const stateKey = requireKey(req.stateKey, "state_key");
      // A loop's record grows with the loop: one never served by the history is refused instead.
      const admitRecord = cycleRecordAdmission(maxMessageBytes, "state_key");
      return runMutation(
        host,
        { method: "CheckCycle", projectId, requestSchema: CheckCycleRequestSchema, request: req, responseSchema: CheckCycleResponseSchema },
        (engine, options) => engine.checkCycle(sessionId, stateKey, { ...options, admitRecord }),
        (r, header) => ({
          header: responseHeader(header),
          detection: {
            detected: r.detection.detected,
            cycle: [...r.detection.cycle],
            cycleLength: r.detection.cycleLength,
            tailLength: r.detection.tailLength,
            stateKey: r.detection.stateKey,
          },
          ...(r.breakerStep === undefined ? {} : { circuitBreakerStep: stepOut(r.breakerStep) }),
          disprovenNodes: [...r.disproven],
        }),
      );
    },

    async getCycleDetectorStats(req) {
      const projectId = requireId(req.projectId, "project_id");
      const sessionId = requireId(req.sessionId, "session_id");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => {
        const stats = snapshot.cycles.stats(sessionId);
        return {
          header,
          stepsProcessed: BigInt(stats?.stepsProcessed ?? 0),
          cyclesDetected: BigInt(stats?.cyclesDetected ?? 0),
          windowSize: stats?.windowSize ?? 0,
          // The limits are state: a session never fed gets the window the generation read would give it.
          maxHistory: stats?.maxHistory ?? snapshot.state.config.cycleHistory,
        };
      });
    },

    async resetCycleDetector(req) {
      const projectId = requireId(req.projectId, "project_id");
      const sessionId = requireId(req.sessionId, "session_id");
      return runMutation(
        host,
        {
          method: "ResetCycleDetector",
          projectId,
          requestSchema: ResetCycleDetectorRequestSchema,
          request: req,
          responseSchema: ResetCycleDetectorResponseSchema,
        },
        (engine, options) => engine.resetCycleDetector(sessionId, options),
        (_stats, header) => ({ header: responseHeader(header) }),
      );
    },

    async analyzeSessionCycles(req) {
      const projectId = requireId(req.projectId, "project_id");
      const sessionId = requireId(req.sessionId, "session_id");
      return readAt(host, projectId, req.atGeneration, ({ snapshot, header }) => {
        const analysis = analyzeSessionCycles(sessionId, snapshot.steps.history(sessionId));
        return {
          header,
          totalSccs: analysis.totalSccs,
          cyclicSccs: analysis.cyclicSccs.slice(0, MAX_SCCS_LISTED).map((c) => ({ values: c.slice(0, MAX_SCC_MEMBERS_LISTED) })),
          largestSccSize: analysis.largestSccSize,
          truncated: analysis.cyclicSccs.length > MAX_SCCS_LISTED || analysis.largestSccSize > MAX_SCC_MEMBERS_LISTED,
        };
      });
    },
  };
}
