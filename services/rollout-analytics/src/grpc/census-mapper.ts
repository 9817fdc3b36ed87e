import type { MessageInitShape } from "@bufbuild/protobuf";
import { unknownPayloadTypes, type RolloutCensus } from "@crs/domain/rollout";
import type { RolloutCensusSchema } from "@crs/contracts/gen/crs/analytics/v1/report_pb";
import { MAX_LABEL_BYTES, MAX_ROWS } from "./listing-caps.js";
import { countMap, int64 } from "./proto-values.js";

/** A census map as listed: its most frequent keys, and what was left out of it. */
interface ListedCounts {
  readonly listed: Record<string, bigint>;
  readonly truncated: boolean;
  readonly unlisted: bigint;
  readonly unlistedEvents: bigint;
}

const fits = (key: string): boolean => key.length * 3 <= MAX_LABEL_BYTES || Buffer.byteLength(key) <= MAX_LABEL_BYTES;

/**
 * The `MAX_ROWS` most frequent keys of `counts` (ties by key), each count exact. A key over
 * `MAX_LABEL_BYTES` is never listed: cut, two keys could become one. What is left out is counted,
 * so the listed counts plus `unlistedEvents` are every event.
 */
function mostFrequent(counts: Readonly<Record<string, number>>): ListedCounts {
  const entries = Object.entries(counts);
  if (entries.length <= MAX_ROWS && entries.every(([key]) => fits(key)))
    return { listed: countMap(counts), truncated: false, unlisted: 0n, unlistedEvents: 0n };
  const kept = entries
    .filter(([key]) => fits(key))
    .sort(([ka, a], [kb, b]) => b - a || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .slice(0, MAX_ROWS);
  const listedEvents = kept.reduce((sum, [, n]) => sum + n, 0);
  const allEvents = entries.reduce((sum, [, n]) => sum + n, 0);
  return {
    listed: countMap(Object.fromEntries(kept)),
    truncated: true,
    unlisted: int64(entries.length - kept.length),
    unlistedEvents: int64(allEvents - listedEvents),
  };
}

/** The proto form of one rollout's census, each map at most its `MAX_ROWS` most frequent types. */
export function censusMessage(rollout: RolloutCensus): MessageInitShape<typeof RolloutCensusSchema> {
  const all = mostFrequent(rollout.payloadTypes);
  const unknown = mostFrequent(unknownPayloadTypes(rollout));
  return {
    payloadTypes: all.listed,
    unknownPayloadTypes: unknown.listed,
    tornTail: rollout.tornTail,
    payloadTypesTruncated: all.truncated,
    payloadTypesUnlisted: all.unlisted,
    payloadTypesUnlistedEvents: all.unlistedEvents,
    unknownPayloadTypesTruncated: unknown.truncated,
    unknownPayloadTypesUnlisted: unknown.unlisted,
    unknownPayloadTypesUnlistedEvents: unknown.unlistedEvents,
  };
}
