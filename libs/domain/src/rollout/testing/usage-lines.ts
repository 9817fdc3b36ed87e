// Rollout lines for usage tests: token_count events with any figure sets, turn_context and
// session_meta lines at given times, decoded as the scan decodes them.
import { decodeLine } from "../decode/decode-line.js";
import type { RolloutRecord } from "../decode/record.js";

/** One figure set in the producer's field names. */
export type U = {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens: number;
};

/** A figure set whose total is input plus output, as the producer writes it. */
export function u(input: number, cached: number, output: number, reasoning = 0): U {
  return {
    input_tokens: input,
    cached_input_tokens: cached,
    output_tokens: output,
    reasoning_output_tokens: reasoning,
    total_tokens: input + output,
  };
}

/** Members added to a token_count's payload and to its info. */
export interface TokenExtras {
  readonly payload?: Record<string, unknown>;
  readonly info?: Record<string, unknown>;
}

/** A token_count event at `ts` (any text) with the given figure sets (both null: `info: null`). */
export function tokenLine(ts: string, total: unknown, last: unknown, extras: TokenExtras = {}): string {
  const info =
    total === null && last === null
      ? null
      : {
          ...(total === null ? {} : { total_token_usage: total }),
          ...(last === null ? {} : { last_token_usage: last }),
          model_context_window: 272000,
          ...extras.info,
        };
  return JSON.stringify({ timestamp: ts, type: "event_msg", payload: { type: "token_count", info, rate_limits: null, ...extras.payload } });
}

/** A turn_context at `ts` with these payload members besides the working directory. */
export function contextLine(ts: string, model: string, payload: Record<string, unknown> = {}): string {
  return JSON.stringify({ timestamp: ts, type: "turn_context", payload: { cwd: "/w", model, ...payload } });
}

/** A session_meta at `ts` for session `id`, with these payload members. */
export function sessionMetaLine(ts: string, id: string, extra: Record<string, unknown>): string {
  return JSON.stringify({ timestamp: ts, type: "session_meta", payload: { id, timestamp: ts, cwd: "/w", ...extra } });
}

/** The records the lines decode to, skipped lines left out. */
export function records(lines: readonly string[]): RolloutRecord[] {
  return lines.map(decodeLine).flatMap((d) => (d.ok ? [d.record] : []));
}
