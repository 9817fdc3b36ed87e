// The last guard of an AnalyzeRollout answer's size. Count caps, the critical-path cap, census caps
// and label cuts keep every ordinary answer far below MAX_ANSWER_BYTES, but together they still
// allow about 10 MB (5,000 outcomes and 1,000 tasks of 256-byte labels, typed and in JSON). When the
// encoded answer is over the budget, whole listings are left out in a fixed order, largest and most
// derivable first, until it fits, and `listings_omitted` names them. With every listing left out
// what remains is bounded whatever the upload: meta twice (nine labels of at most 256 bytes), the
// health session and model, the census (two maps of at most 1,000 keys of at most 256 bytes, about
// 0.55 MB) and counts and flags: under 0.6 MB. The budget is MAX_ANSWER_BYTES or less when the
// server's configured message limit is lower; an answer that is over it even with every listing left
// out fails ANSWER_TOO_LARGE instead of being sent for the transport to refuse.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { encodeMessage } from "@crs/runtime";
import { AnalyzeRolloutResponseSchema } from "@crs/contracts/gen/crs/analytics/v1/rollout_pb";
import { answerTooLarge } from "../errors.js";
import { MAX_ANSWER_BYTES } from "./listing-caps.js";

type Answer = MessageInitShape<typeof AnalyzeRolloutResponseSchema>;

// What gRPC puts before every message: a compressed flag and a 4-byte length. grpc-js counts its
// message limit without them (and so does the runtime's own check), but a peer or proxy that counts
// the framed message would then refuse an answer of exactly the limit; 5 bytes of a limit of at
// least 1 KiB cost nothing. HTTP/2 frame headers are counted by no message limit.
const MESSAGE_PREFIX_BYTES = 5;

/**
 * The most bytes an encoded AnalyzeRollout answer may have when the server sends messages of at
 * most `maxMessageBytes` (GRPC_MAX_MESSAGE_BYTES): MAX_ANSWER_BYTES, or the message limit less the
 * gRPC message prefix when that is smaller.
 */
export function answerBudget(maxMessageBytes: number): number {
  return Math.min(MAX_ANSWER_BYTES, maxMessageBytes - MESSAGE_PREFIX_BYTES);
}

/** The listings the guard may leave out, by field path, in the order they are left out. */
const LISTINGS: readonly string[] = [
  "report_json",
  "analytics.outcomes",
  "analytics.tasks",
  "lifecycle.tasks",
  "lifecycle.orphans",
  "lifecycle.reused",
  "lifecycle.multiply_terminated",
  "analytics.behavior.repeat_failures",
  "analytics.behavior.success_loops",
  "analytics.behavior.edit_churn",
  "health.compactions",
];

// A field path's keys in the generated code: each proto name in camel case (`multiply_terminated`
// is `multiplyTerminated`), as protobuf-es names fields.
function keysOf(path: string): string[] {
  return path.split(".").map((name) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));
}

// Whether the listing at `keys` holds anything: a non-empty text or list.
function present(part: unknown, keys: readonly string[]): boolean {
  const value = keys.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], part);
  return (typeof value === "string" || Array.isArray(value)) && value.length > 0;
}

// `part` (a message or its init shape) with the listing at `keys` emptied, each message on the way copied.
function omitted(part: unknown, keys: readonly string[]): unknown {
  const [key, ...rest] = keys;
  if (key === undefined) return typeof part === "string" ? "" : [];
  const fields = (part ?? {}) as Record<string, unknown>;
  return { ...fields, [key]: omitted(fields[key], rest) };
}

/**
 * `answer` encoded, at most `budget` bytes (see {@link answerBudget}): as it is when it fits, else
 * with listings left out in the fixed order of {@link LISTINGS} until it does, each named in
 * `listings_omitted`. Fails ANSWER_TOO_LARGE when even every listing left out is over `budget`.
 */
export function encodedWithinBudget(answer: Answer, budget: number): Uint8Array {
  let bytes = encodeMessage(AnalyzeRolloutResponseSchema, answer);
  let out = answer;
  const left: string[] = [];
  for (const path of LISTINGS) {
    if (bytes.byteLength <= budget) break;
    const keys = keysOf(path);
    if (!present(out, keys)) continue;
    out = omitted(out, keys) as Answer;
    left.push(path);
    bytes = encodeMessage(AnalyzeRolloutResponseSchema, { ...out, listingsOmitted: left });
  }
  if (bytes.byteLength > budget) throw answerTooLarge(bytes.byteLength, budget);
  return bytes;
}
