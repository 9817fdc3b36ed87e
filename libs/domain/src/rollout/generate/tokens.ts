import type { TokenUsage } from "./lines.js";
import type { Prng } from "./prng.js";

// Token usage as the producer reports it: each model reply adds a `last_token_usage` and grows the
// cumulative `total_token_usage`; `input_tokens` includes the cached part. The context grows with
// every reply until a compaction shrinks it.

/** Running token state of one session. */
export interface TokenMeter {
  /** Records one model reply and returns the figures its `token_count` carries. */
  reply(rng: Prng): { total: TokenUsage; last: TokenUsage };
  /** The figures of the last reply (for a repeated `token_count`), null before any. */
  latest(): { total: TokenUsage; last: TokenUsage } | null;
  /** Current context occupancy in tokens. */
  context(): number;
  /** Shrinks the context after a compaction. */
  compact(rng: Prng): void;
}

/** No tokens. */
export const ZERO_USAGE: TokenUsage = {
  input_tokens: 0,
  cached_input_tokens: 0,
  output_tokens: 0,
  reasoning_output_tokens: 0,
  total_tokens: 0,
};

/** The sum of two token figure sets. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    cached_input_tokens: a.cached_input_tokens + b.cached_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    reasoning_output_tokens: a.reasoning_output_tokens + b.reasoning_output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

/** A meter starting from the instructions' size in tokens. */
export function tokenMeter(baseContext: number): TokenMeter {
  let context = baseContext;
  let total = ZERO_USAGE;
  let latest: { total: TokenUsage; last: TokenUsage } | null = null;
  return {
    reply(rng) {
      const input = context + rng.int(50, 4000);
      const cached = Math.min(input, Math.floor(context * (0.6 + rng.next() * 0.35)));
      const reasoning = rng.chance(0.7) ? rng.int(0, 1500) : 0;
      const output = reasoning + rng.int(10, 1200);
      const last = {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        reasoning_output_tokens: reasoning,
        total_tokens: input + output,
      };
      total = addUsage(total, last);
      context = input + output;
      latest = { total, last };
      return latest;
    },
    latest: () => latest,
    context: () => context,
    compact(rng) {
      context = rng.int(8000, 30000);
    },
  };
}
