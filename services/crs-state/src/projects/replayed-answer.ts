/** The answer to a retried request id: the first answer, marked replayed. */

import type { LoadedProject } from "./loaded-project.js";
import type { MutationOutcome, MutationRequest } from "./project-host.js";
import { assertSameRequest } from "./request-table.js";

/**
 * The first answer of `req` when it carries a request id the project already knows; undefined
 * when it must run. A validate_only call never replays: it answers what would happen now.
 * `fingerprint` is the request's, in hex, for a caller that stores it too.
 */
export function replayOf(
  p: LoadedProject,
  req: MutationRequest,
  fingerprint = req.fingerprint ?? "",
): Promise<MutationOutcome> | undefined {
  const requestId = req.requestId ?? "";
  if (requestId === "" || req.validateOnly === true) return undefined;
  return replayedAnswer(p, requestId, req.method, fingerprint);
}

/**
 * The first answer of `requestId` when the project already knows it, remembered or still waiting
 * for its batch; undefined for a new id. REQUEST_ID_REUSED (thrown at once) when the id came with
 * another method or content.
 */
export function replayedAnswer(
  p: LoadedProject,
  requestId: string,
  method: string,
  fingerprint: string,
): Promise<MutationOutcome> | undefined {
  const stored = p.requests.lookup(requestId, method, fingerprint);
  if (stored !== undefined) {
    return Promise.resolve({
      answer: new Uint8Array(Buffer.from(stored.answer, "base64")),
      replayed: true,
      header: { projectId: p.meta.projectId, projectUid: p.meta.projectUid, generation: stored.generation, replayed: true },
    });
  }
  const inflight = p.inflight.get(requestId);
  if (inflight === undefined) return undefined;
  assertSameRequest(inflight, requestId, method, fingerprint);
  return (inflight.outcome as Promise<MutationOutcome>).then((first) => ({
    ...first,
    replayed: true,
    header: { ...first.header, replayed: true },
  }));
}
