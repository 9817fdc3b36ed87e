import { clockRequired } from "./errors.js";

/** Inputs of {@link isFresh}; the clock is the caller's, never read here. */
export interface FreshnessInput {
  /** Last modification of the rollout, Unix ms. */
  readonly mtimeMs: number;
  /** The scan's clock, Unix ms; required. */
  readonly nowMs: number;
  /** Window within which a rollout may still be written; ≤ 0 means nothing is fresh. */
  readonly freshWithinMs: number;
}

/** Whether a rollout may still be written: modified within the window (inclusive). */
export function isFresh(input: FreshnessInput): boolean {
  if (!Number.isFinite(input.nowMs) || input.nowMs <= 0) throw clockRequired("now");
  if (input.freshWithinMs <= 0) return false;
  // A modification time ahead of the clock is skew only while it is within the window;
  // further ahead it is a bogus stamp and proves nothing about a live writer.
  return Math.abs(input.nowMs - input.mtimeMs) <= input.freshWithinMs;
}

const DRIVE = /^[a-zA-Z]:[\\/]/;

/** Lexically cleans a path: trims, unifies separators of drive paths, folds `.`, `..` and repeats. */
export function cleanPath(raw: string): string {
  let p = raw.trim();
  if (p === "") return "";
  if (DRIVE.test(p)) p = p.replace(/\\/g, "/");
  const absolute = p.startsWith("/");
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (part !== ".." || !absolute) out.push(part);
  }
  const joined = out.join("/");
  return absolute ? `/${joined}` : joined === "" ? "." : joined;
}

/** Options of {@link sameCwd}. */
export interface SameCwdOptions {
  /** Compare ignoring case, for stores on case-insensitive file systems. @defaultValue false */
  readonly caseInsensitive?: boolean;
}

/** Whether a rollout's recorded cwd names the scope directory (lexical comparison only). */
export function sameCwd(recorded: string, scope: string, options: SameCwdOptions = {}): boolean {
  const a = cleanPath(recorded);
  const b = cleanPath(scope);
  if (a === "" || b === "") return false;
  return options.caseInsensitive === true ? a.toLowerCase() === b.toLowerCase() : a === b;
}
