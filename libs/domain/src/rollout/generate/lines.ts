// JSONL line builders in the producer's shapes (spec §3.1): the wrapped `RolloutLine` of current
// writers and the bare objects of the pre-wrapper era.

/** Renders Unix milliseconds as the producer's timestamp: RFC 3339 UTC with milliseconds. */
export function isoMs(ms: number): string {
  return new Date(ms).toISOString();
}

/** A wrapped rollout line `{timestamp, type, payload}`. */
export function wrapped(ms: number, type: string, payload: Record<string, unknown>): string {
  return JSON.stringify({ timestamp: isoMs(ms), type, payload });
}

/** An `event_msg` line. */
export function eventLine(ms: number, payload: Record<string, unknown>): string {
  return wrapped(ms, "event_msg", payload);
}

/** A `response_item` line. */
export function itemLine(ms: number, payload: Record<string, unknown>): string {
  return wrapped(ms, "response_item", payload);
}

/** A message item with one text part. */
export function messageItem(role: "user" | "assistant" | "developer", text: string): Record<string, unknown> {
  const partType = role === "assistant" ? "output_text" : "input_text";
  return { type: "message", role, content: [{ type: partType, text }] };
}

/** A pre-wrapper line: the object itself, no timestamp. */
export function bare(value: Record<string, unknown>): string {
  return JSON.stringify(value);
}

/** One token usage figure set, as `token_count.info` carries it. */
export interface TokenUsage {
  readonly input_tokens: number;
  readonly cached_input_tokens: number;
  readonly output_tokens: number;
  readonly reasoning_output_tokens: number;
  readonly total_tokens: number;
}

/** A `token_count` event; `info` null is what writers emit before the first model reply. */
export function tokenCountLine(ms: number, info: { total: TokenUsage; last: TokenUsage; window: number } | null): string {
  const rateLimits = {
    limit_id: "codex",
    limit_name: null,
    primary: { used_percent: 2, window_minutes: 300, resets_at: Math.floor(ms / 1000) + 9000 },
  };
  const body = info === null ? null : { total_token_usage: info.total, last_token_usage: info.last, model_context_window: info.window };
  return eventLine(ms, { type: "token_count", info: body, rate_limits: rateLimits });
}
