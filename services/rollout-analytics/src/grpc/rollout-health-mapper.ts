import type { MessageInitShape } from "@bufbuild/protobuf";
import type { SessionHealth } from "@crs/domain/rollout";
import type { SessionHealthSchema } from "@crs/contracts/gen/crs/analytics/v1/report_pb";
import { countMap, int64 } from "./proto-values.js";

/** The proto form of one session's turn health. */
export function healthMessage(h: SessionHealth): MessageInitShape<typeof SessionHealthSchema> {
  return {
    session: h.session,
    model: h.model,
    turns: int64(h.turns),
    toolCalls: int64(h.toolCalls),
    zeroTool: countMap(h.zeroTool),
    aborted: int64(h.aborted),
    superseded: int64(h.superseded),
    unterminated: int64(h.unterminated),
    compactions: h.compactions.map(int64),
  };
}

// Keys sorted byte-wise, as every token-keyed map of the reference JSON is.
function sortedCounts(counts: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * One session's health in the reference's session-stats JSON shape:
 * `{"session","model"?,"turns","tool_calls","zero_tool","aborted"?,"superseded"?,"unterminated"?,"compactions"?}`.
 */
export function sessionHealthJson(h: SessionHealth): Record<string, unknown> {
  return {
    session: h.session,
    ...(h.model === "" ? {} : { model: h.model }),
    turns: h.turns,
    tool_calls: h.toolCalls,
    zero_tool: sortedCounts(h.zeroTool),
    ...(h.aborted === 0 ? {} : { aborted: h.aborted }),
    ...(h.superseded === 0 ? {} : { superseded: h.superseded }),
    ...(h.unterminated === 0 ? {} : { unterminated: h.unterminated }),
    ...(h.compactions.length === 0 ? {} : { compactions: [...h.compactions] }),
  };
}
