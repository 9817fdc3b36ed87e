// The last guard of an AnalyzeRollout answer's size. Count caps, the critical-path cap, census caps
// and label cuts keep every ordinary answer far below MAX_ANSWER_BYTES, but together they still
// allow about 10 MB (5,000 outcomes and 1,000 tasks of 256-byte labels, typed and in JSON). When the
// encoded answer is over the budget, whole listings are left out in a fixed order, largest and most
// derivable first, until it fits, and `listings_omitted` names them. With every listing left out
// what remains is bounded whatever the upload: meta twice (nine labels of at most 256 bytes), the
// health session and model, the census (two maps of at most 1,000 keys of at most 256 bytes, about
// 0.55 MB) and counts and flags: under 0.6 MB.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { encodeMessage } from "@crs/runtime";
import { AnalyzeRolloutResponseSchema } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";
import { MAX_ANSWER_BYTES } from "./listing-caps.js";

type Answer = MessageInitShape<typeof AnalyzeRolloutResponseSchema>;

/** A listing the guard may leave out: its field path, whether it holds anything, and the answer without it. */
interface Listing {
  readonly path: string;
  readonly present: (a: Answer) => boolean;
  readonly omit: (a: Answer) => Answer;
}

const some = (list: readonly unknown[] | undefined): boolean => (list?.length ?? 0) > 0;

/** `part` (a message or its init shape) with `key` set to `value`. */
function withField<T extends object, K extends keyof T>(part: T | undefined, key: K, value: T[K]): T {
  return { ...part, [key]: value } as T;
}

/** The listings in the order they are left out. */
const LISTINGS: readonly Listing[] = [
  { path: "report_json", present: (a) => (a.reportJson ?? "") !== "", omit: (a) => withField(a, "reportJson", "") },
  {
    path: "analytics.outcomes",
    present: (a) => some(a.analytics?.outcomes),
    omit: (a) => withField(a, "analytics", withField(a.analytics, "outcomes", [])),
  },
  {
    path: "analytics.tasks",
    present: (a) => some(a.analytics?.tasks),
    omit: (a) => withField(a, "analytics", withField(a.analytics, "tasks", [])),
  },
  {
    path: "lifecycle.tasks",
    present: (a) => some(a.lifecycle?.tasks),
    omit: (a) => withField(a, "lifecycle", withField(a.lifecycle, "tasks", [])),
  },
  {
    path: "lifecycle.orphans",
    present: (a) => some(a.lifecycle?.orphans),
    omit: (a) => withField(a, "lifecycle", withField(a.lifecycle, "orphans", [])),
  },
  {
    path: "lifecycle.reused",
    present: (a) => some(a.lifecycle?.reused),
    omit: (a) => withField(a, "lifecycle", withField(a.lifecycle, "reused", [])),
  },
  {
    path: "lifecycle.multiply_terminated",
    present: (a) => some(a.lifecycle?.multiplyTerminated),
    omit: (a) => withField(a, "lifecycle", withField(a.lifecycle, "multiplyTerminated", [])),
  },
  {
    path: "analytics.behavior.repeat_failures",
    present: (a) => some(a.analytics?.behavior?.repeatFailures),
    omit: (a) => withField(a, "analytics", withField(a.analytics, "behavior", withField(a.analytics?.behavior, "repeatFailures", []))),
  },
  {
    path: "analytics.behavior.success_loops",
    present: (a) => some(a.analytics?.behavior?.successLoops),
    omit: (a) => withField(a, "analytics", withField(a.analytics, "behavior", withField(a.analytics?.behavior, "successLoops", []))),
  },
  {
    path: "analytics.behavior.edit_churn",
    present: (a) => some(a.analytics?.behavior?.editChurn),
    omit: (a) => withField(a, "analytics", withField(a.analytics, "behavior", withField(a.analytics?.behavior, "editChurn", []))),
  },
  {
    path: "health.compactions",
    present: (a) => some(a.health?.compactions),
    omit: (a) => withField(a, "health", withField(a.health, "compactions", [])),
  },
];

/**
 * `answer` encoded, at most `budget` bytes: as it is when it fits, else with listings left out in
 * the fixed order of {@link LISTINGS} until it does, each named in `listings_omitted`.
 */
export function encodedWithinBudget(answer: Answer, budget: number = MAX_ANSWER_BYTES): Uint8Array {
  let bytes = encodeMessage(AnalyzeRolloutResponseSchema, answer);
  let out = answer;
  const omitted: string[] = [];
  for (const listing of LISTINGS) {
    if (bytes.byteLength <= budget) break;
    if (!listing.present(out)) continue;
    out = listing.omit(out);
    omitted.push(listing.path);
    bytes = encodeMessage(AnalyzeRolloutResponseSchema, { ...out, listingsOmitted: omitted });
  }
  return bytes;
}
