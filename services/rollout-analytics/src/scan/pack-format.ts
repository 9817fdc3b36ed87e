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
