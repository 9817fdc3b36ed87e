import { tokenCountLine } from "./lines.js";
import type { Prng } from "./prng.js";
import type { SecretPlanter } from "./secrets.js";
import type { TokenMeter } from "./tokens.js";

// The mutable state of one rollout being written: its clock, lines, byte count and meters.

/** How a rollout's era writes its turns (spec §3.2). */
export type RolloutEra =
  /** 0.11x+: keyed starts/completes with duration and TTFT. */
  | "current"
  /** 0.104: keyed starts/completes, no duration. */
  | "early_keyed"
  /** Upstream's `turn_started` / `turn_complete` spellings. */
  | "alias"
  /** Before keyed turns: user/agent messages and reason-only aborts. */
  | "unkeyed"
  /** Before the line wrapper: bare meta and response items, no timestamps. */
  | "legacy";

/** A rollout under construction. */
export interface SessionState {
  readonly rng: Prng;
  readonly plant: SecretPlanter;
  readonly era: RolloutEra;
  readonly model: string;
  readonly tokens: TokenMeter;
  readonly lines: string[];
  /** Bytes written so far, line feeds included. */
  bytes: number;
  /** The session clock, Unix ms. */
  now: number;
  /** Calls written so far (for unique call ids). */
  calls: number;
}

/** Appends one line. */
export function push(s: SessionState, line: string): void {
  s.lines.push(line);
  s.bytes += utf8Length(line) + 1;
}

/** Moves the clock forward. */
export function advance(s: SessionState, ms: number): number {
  s.now += Math.max(0, Math.round(ms));
  return s.now;
}

/** A fresh call id in the producer's `call_…` shape. */
export function nextCallId(s: SessionState): string {
  s.calls += 1;
  return `call_${s.rng.hex(20)}${s.calls.toString(36)}`;
}

/** Writes a model reply's `token_count`, sometimes repeated as the producer does on rate-limit updates. */
export function writeTokenCount(s: SessionState): void {
  const figures = s.tokens.reply(s.rng);
  push(s, tokenCountLine(advance(s, s.rng.int(5, 80)), { ...figures, window: 272000 }));
  if (s.rng.chance(0.15)) push(s, tokenCountLine(advance(s, s.rng.int(1, 30)), { ...figures, window: 272000 }));
}

/** UTF-8 byte length of a string without allocating it. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** A version-7 style uuid whose first 48 bits are `ms`, as current writers use for ids. */
export function uuid7(rng: Prng, ms: number): string {
  const time = Math.floor(ms).toString(16).padStart(12, "0").slice(-12);
  const variant = (8 + rng.int(0, 3)).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${rng.hex(3)}-${variant}${rng.hex(3)}-${rng.hex(12)}`;
}
