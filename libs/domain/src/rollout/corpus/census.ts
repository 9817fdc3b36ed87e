// Per-rollout summaries of the error-class census and the post-tool spans.
import type { RolloutAnalytics } from "../analytics/types.js";
import type { DecodedRollout } from "../decode/collect.js";
import { classifyAbort } from "../error-class.js";
import { sortedRecord, sortedSample, tallyKeys } from "./order.js";
import type { ErrorsPartial, PostToolPartial } from "./types.js";

// The reference's known set, plus the upstream aliases this reader folds as task kinds.
const KNOWN_PAYLOAD_TYPES = new Set(["task_started", "task_complete", "turn_aborted", "token_count", "turn_started", "turn_complete"]);

/** Payload types of a rollout that the fold does not know, with their counts, sorted by type. */
export function unknownPayloadTypes(rollout: Pick<DecodedRollout, "payloadTypes">): Record<string, number> {
  return sortedRecord(Object.entries(rollout.payloadTypes).filter(([t]) => !KNOWN_PAYLOAD_TYPES.has(t)));
}

/** The error-class census of one decoded rollout. */
export function errorsOf(rollout: DecodedRollout): ErrorsPartial {
  const aborts: string[] = [];
  const statuses: string[] = [];
  const turnErrors: string[] = [];
  let taskComplete = 0;
  let terminalsWithClass = 0;
  const last = rollout.records.length - 1;
  rollout.records.forEach((r, i) => {
    // Only an abort that is the final record of a torn file can be blamed on the tear.
    if (r.kind === "turn_aborted") aborts.push(classifyAbort(r.reason, rollout.tornTail && i === last));
    if (r.kind === "task_complete") {
      taskComplete += 1;
      if (r.statusClasses.length > 0) terminalsWithClass += 1;
      statuses.push(...r.statusClasses);
    }
    if (r.kind === "turn_error") turnErrors.push(r.errorClass);
  });
  const types = Object.entries(rollout.payloadTypes);
  const unknown = unknownPayloadTypes(rollout);
  return {
    sessions: 1,
    tornTails: rollout.tornTail ? 1 : 0,
    rolloutsWithUnknown: Object.keys(unknown).length > 0 ? 1 : 0,
    turnAborted: aborts.length,
    taskComplete,
    terminalsWithClass,
    payloadTypes: sortedRecord(types),
    unknownPayloadTypes: unknown,
    abortClasses: tallyKeys(aborts),
    statusClasses: tallyKeys(statuses),
    turnErrorClasses: tallyKeys(turnErrors),
    oversizedLines: rollout.oversized,
  };
}

function samplesBy(entries: readonly (readonly [string, number])[]): Record<string, number[]> {
  const m = new Map<string, number[]>();
  for (const [k, v] of entries) {
    const list = m.get(k);
    if (list === undefined) m.set(k, [v]);
    else list.push(v);
  }
  return sortedRecord([...m.entries()].map(([k, vs]) => [k, sortedSample(vs)]));
}

/** The post-tool span summary of one analysed rollout. */
export function postToolOf(a: RolloutAnalytics): PostToolPartial {
  return {
    spans: a.postTool.length,
    attribution: tallyKeys(a.postTool.map((s) => s.attribution)),
    byBand: samplesBy(a.postTool.map((s) => [s.band, s.gapMs] as const)),
    byBucket: samplesBy(a.postTool.map((s) => [s.bucket, s.gapMs] as const)),
  };
}
