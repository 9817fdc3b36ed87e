import type { AnalyzeRolloutRequest, RolloutUpload } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";
import { malformedUpload } from "../errors.js";
import { RolloutBody, type DeclaredContent, type ReceivedRollout, type UploadLimits } from "./rollout-body.js";

/** Options of {@link receiveRollout}. */
export interface ReceiveOptions<T extends DeclaredContent> {
  readonly limits: UploadLimits;
  /** Validates the metadata message before any content is read. */
  readonly accept: (upload: RolloutUpload) => T;
  /** Most per-call outcomes the fold lists (every call is still counted); all when absent. */
  readonly maxListed?: number;
}

/** Reads an AnalyzeRollout stream: the `upload` metadata first, then `chunk`s folded as they arrive. */
export async function receiveRollout<T extends DeclaredContent>(
  requests: AsyncIterable<AnalyzeRolloutRequest>,
  options: ReceiveOptions<T>,
): Promise<{ upload: T; received: ReceivedRollout }> {
  let started: { upload: T; body: RolloutBody } | undefined;
  // The runtime ends `requests` normally only when the client finished its stream; a cancel, an
  // expired deadline or a shutdown is thrown from the loop instead.
  for await (const { part } of requests) {
    if (started === undefined) {
      if (part.case !== "upload") throw malformedUpload("part", "must be `upload` in the first message");
      const upload = options.accept(part.value);
      started = { upload, body: new RolloutBody(options.limits, upload, options.maxListed) };
    } else if (part.case === "chunk") {
      started.body.push(part.value);
    } else {
      throw malformedUpload("part", part.case === "upload" ? "`upload` may only be the first message" : "must be `upload` or `chunk`");
    }
  }
  if (started === undefined) throw malformedUpload("part", "the stream ended before its `upload` message");
  return { upload: started.upload, received: started.body.finish() };
}
