import { createRequire } from "node:module";

// zlib is loaded when an entry is first written or read: a run without the cache never loads it.
const load = createRequire(import.meta.url);
let crc32: ((text: string) => number) | undefined;

function checksum(text: string): string {
  crc32 ??= (load("node:zlib") as typeof import("node:zlib")).crc32;
  return crc32(text).toString(16).padStart(8, "0");
}

/** File name ending of a pack of cache entries. */
export const PACK_SUFFIX = ".pack";

/**
 * A pack's text: a first line naming the rollout path of each entry, `{"paths":[...]}`, then one
 * line per entry in that order. The index line lets a prune learn what a pack holds from its
 * first bytes.
 */
export function packText(paths: readonly string[], entries: readonly string[]): string {
  return `${JSON.stringify({ paths })}\n${entries.join("\n")}\n`;
}

/**
 * An entry's line in a pack: the CRC-32 of its JSON text, as 8 hex digits, a space, and the text.
 * An entry changed on disk (a flipped bit, a hand edit) may still be valid JSON of another shape,
 * which summing would choke on or miscount; with its checksum it reads as missing instead.
 */
export function entryLine(text: string): string {
  return `${checksum(text)} ${text}`;
}

/** The JSON text of an entry line whose checksum matches it, else null. */
export function entryText(line: string): string | null {
  if (line.length < 9 || line.charCodeAt(8) !== 0x20) return null;
  const text = line.slice(9);
  return checksum(text) === line.slice(0, 8) ? text : null;
}

/** The paths a pack's first line names, or null when it names none readably. */
export function packPaths(firstLine: string): string[] | null {
  try {
    const index = JSON.parse(firstLine) as { paths?: unknown };
    const paths = index.paths;
    return Array.isArray(paths) && paths.every((p) => typeof p === "string") ? paths : null;
  } catch {
    return null;
  }
}

// A name part that concurrent writers do not share: names need to be distinct, not unguessable,
// so this process's id and a draw from its own randomly seeded generator serve, without loading
// the crypto module on every start.
function uniquePart(): string {
  return `${process.pid.toString(36)}-${Math.floor(Math.random() * 2 ** 52).toString(36)}`;
}

/** A new pack's name, distinct from any other writer's. */
export function newPackName(): string {
  return `${uniquePart()}${PACK_SUFFIX}`;
}

/** The temporary name a file is written under before it is renamed to `target`. */
export function tempOf(target: string): string {
  return `${target}.${uniquePart()}.tmp`;
}
