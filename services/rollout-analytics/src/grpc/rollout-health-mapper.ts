import type { MessageInitShape } from "@bufbuild/protobuf";
import { firstListed, type SessionHealth } from "@crs/domain/rollout";
import type { SessionHealthSchema } from "@crs/contracts/gen/crs/analytics/v1/report_pb";
import { MAX_ROWS } from "./listing-caps.js";
import { countMap, int64 } from "./proto-values.js";

/** The proto form of one session's turn health, compaction readings capped at {@link MAX_ROWS}. */
export function healthMessage(h: SessionHealth): MessageInitShape<typeof SessionHealthSchema> {
  const compactions = firstListed(h.compactions, MAX_ROWS);
  return {
    session: h.session,
    model: h.model,
    turns: int64(h.turns),
    toolCalls: int64(h.toolCalls),
    zeroTool: countMap(h.zeroTool),
    aborted: int64(h.aborted),
    superseded: int64(h.superseded),
    unterminated: int64(h.unterminated),
    compactions: compactions.items.map(int64),
    compactionsTruncated: compactions.truncated,
  };
}
