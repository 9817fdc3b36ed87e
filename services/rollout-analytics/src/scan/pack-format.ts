import { randomBytes } from "node:crypto";

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

/** A new pack's name: random, so concurrent writers never collide. */
export function newPackName(): string {
  return `${randomBytes(8).toString("hex")}${PACK_SUFFIX}`;
}

/** The temporary name a file is written under before it is renamed to `target`. */
export function tempOf(target: string): string {
  return `${target}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
}
