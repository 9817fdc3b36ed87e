import { sortedRecord } from "../corpus/order.js";
import type { SessionHealth } from "../health/session.js";
import { firstListed, type ListingOptions } from "./listing.js";

/**
 * One session's health in the reference's session-stats JSON shape:
 * `{"session","model"?,"turns","tool_calls","zero_tool","aborted"?,"superseded"?,"unterminated"?,"compactions"?}`,
 * token-keyed maps sorted byte-wise and zero counts left out; `compactions_truncated` is set when
 * the readings are cut at `maxRows`.
 */
export function sessionHealthJson(h: SessionHealth, options: ListingOptions = {}): Record<string, unknown> {
  const compactions = firstListed(h.compactions, options.maxRows);
  return {
    session: h.session,
    ...(h.model === "" ? {} : { model: h.model }),
    turns: h.turns,
    tool_calls: h.toolCalls,
    zero_tool: sortedRecord(Object.entries(h.zeroTool)),
    ...(h.aborted === 0 ? {} : { aborted: h.aborted }),
    ...(h.superseded === 0 ? {} : { superseded: h.superseded }),
    ...(h.unterminated === 0 ? {} : { unterminated: h.unterminated }),
    ...(compactions.items.length === 0 ? {} : { compactions: [...compactions.items] }),
    ...(compactions.truncated ? { compactions_truncated: true } : {}),
  };
}
