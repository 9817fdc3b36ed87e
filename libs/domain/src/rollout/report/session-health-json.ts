import { sortedRecord } from "../corpus/order.js";
import type { SessionHealth } from "../health/session.js";

/**
 * One session's health in the reference's session-stats JSON shape:
 * `{"session","model"?,"turns","tool_calls","zero_tool","aborted"?,"superseded"?,"unterminated"?,"compactions"?}`,
 * token-keyed maps sorted byte-wise and zero counts left out.
 */
export function sessionHealthJson(h: SessionHealth): Record<string, unknown> {
  return {
    session: h.session,
    ...(h.model === "" ? {} : { model: h.model }),
    turns: h.turns,
    tool_calls: h.toolCalls,
    zero_tool: sortedRecord(Object.entries(h.zeroTool)),
    ...(h.aborted === 0 ? {} : { aborted: h.aborted }),
    ...(h.superseded === 0 ? {} : { superseded: h.superseded }),
    ...(h.unterminated === 0 ? {} : { unterminated: h.unterminated }),
    ...(h.compactions.length === 0 ? {} : { compactions: [...h.compactions] }),
  };
}
