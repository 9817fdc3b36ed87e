import { encodedMessage, type Logger, type ServiceHandlers } from "@crs/runtime";
import { sessionHealth } from "@crs/domain/rollout";
import { AnalyzeRolloutResponseSchema, type RolloutService } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";
import { receiveRollout, type UploadLimits } from "../upload/index.js";
import { answerBudget, encodedWithinBudget } from "./answer-budget.js";
import { MAX_OUTCOMES } from "./listing-caps.js";
import { responseOf, sessionName, uploadOf } from "./rollout-mapper.js";

/** What the rollout handlers need from the service. */
export interface RolloutHandlerOptions {
  readonly limits: UploadLimits;
  readonly logger: Logger;
  /** The largest message the server sends (GRPC_MAX_MESSAGE_BYTES); an answer's byte budget follows it. */
  readonly maxMessageBytes: number;
}

/** Single-rollout analysis: the upload is folded as it streams and only the report is kept. */
export function rolloutHandlers(options: RolloutHandlerOptions): ServiceHandlers<typeof RolloutService.method> {
  const { limits, logger } = options;
  const budget = answerBudget(options.maxMessageBytes);
  return {
    async analyzeRollout(requests) {
      // The fold lists no more outcomes than a response carries; every call is still counted.
      const { upload, received } = await receiveRollout(requests, { limits, accept: uploadOf, maxListed: MAX_OUTCOMES });
      const folded = received.fold.finish({ meta: received.census.meta, fresh: upload.fresh });
      const { analytics } = folded;
      const health = upload.includeHealth ? sessionHealth(sessionName(upload, analytics), folded) : undefined;
      // Sizes and counts only: the content never reaches a log line.
      logger.debug(
        {
          request_id: upload.requestId,
          project_id: upload.projectId,
          bytes: received.bytes,
          lines: received.lines,
          tasks: analytics.tasks.length,
          calls: analytics.calls,
        },
        "rollout analysed",
      );
      // Encoded here, once, so that an answer over its byte budget can shed listings and still be sent.
      return encodedMessage(AnalyzeRolloutResponseSchema, encodedWithinBudget(responseOf(upload, received, analytics, health), budget));
    },
  };
}
