import { parseTimestamp } from "@crs/domain/rollout";
import { badField } from "../errors.js";

// Parsers for command-line values. Each names its flag when it refuses a value, so the user
// sees which argument to fix.

const UNITS: Readonly<Record<string, number>> = {
  "": 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  k: 1e3,
  m: 1e6,
  g: 1e9,
};

/** A byte size such as `50MB`, `1.5GiB` or `20000`. */
export function parseSize(flag: string, text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = m === null ? undefined : UNITS[(m[2] ?? "").toLowerCase()];
  if (m === null || unit === undefined) throw badField(flag, `must be a size like 50MB, 512KiB or 20000 (got ${JSON.stringify(text)})`);
  const bytes = Math.round(Number(m[1]) * unit);
  if (!Number.isSafeInteger(bytes) || bytes <= 0) throw badField(flag, "must be a positive size");
  return bytes;
}

/** A whole number in [min, max]. */
export function parseInteger(flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^-?\d+$/.test(text.trim())) throw badField(flag, `must be a whole number (got ${JSON.stringify(text)})`);
  const n = Number(text.trim());
  if (!Number.isSafeInteger(n) || n < min || n > max) throw badField(flag, `must be between ${min} and ${max}`);
  return n;
}

/** A point in time: RFC 3339 text (`2026-04-01T12:00:00Z`), a date (`2026-04-01`, UTC) or Unix ms. */
export function parseInstant(flag: string, text: string): number {
  const t = text.trim();
  // The rollouts' own timestamp rule: a date that does not exist, or a time without an offset
  // (local to whichever machine runs the command), is refused rather than rolled over or guessed.
  const ms = /^\d+$/.test(t) ? Number(t) : (parseTimestamp(/^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t}T00:00:00Z` : t) ?? Number.NaN);
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw badField(flag, `must be an RFC 3339 time, a YYYY-MM-DD date or Unix milliseconds (got ${JSON.stringify(text)})`);
  return ms;
}

/** One of a closed set of words. */
export function parseChoice<T extends string>(flag: string, text: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(text))
    throw badField(flag, `must be one of ${choices.join(", ")} (got ${JSON.stringify(text)})`);
  return text as T;
}
