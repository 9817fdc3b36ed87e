import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";
import { normalize, sep } from "node:path";
import { badField } from "../errors.js";

/** A rollout file found under the root, with what decides its freshness and its cache entry. */
export interface RolloutFile {
  /** Path as reached from the root (a symbolic link keeps its own path). */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** What a walk found. */
export interface WalkResult {
  /** Newest first by mtime; equal mtimes by path, so the order is total. */
  readonly files: readonly RolloutFile[];
  /**
   * Rollout files under the root that could not be stat'ed (a dangling link, a vanished file);
   * none under a `limit`, which keeps the newest files and cannot date these.
   */
  readonly unreadable: number;
  /** Directories under the root that could not be listed; what they hold is unknown, so none is counted as a rollout. */
  readonly unreadableDirs: number;
  /** Symbolic links that lead outside the root, not followed. */
  readonly outsideRoot: number;
}

/** Options of {@link walkRollouts}. */
export interface WalkOptions {
  /** Keep only the newest `limit` files; 0 or absent keeps all. */
  readonly limit?: number;
}

const ROLLOUT_SUFFIX = ".jsonl";
// Files stat'ed and directories listed between two turns of the event loop. A blocking call on a
// cached inode costs microseconds where one through the thread pool costs a round trip and a
// promise; the turns keep a server that walks a large store answering meanwhile.
const CALLS_PER_TURN = 256;

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * `join(dir, name)` for a normalized `dir` and an entry name (no separator, not `.` or `..`),
 * without normalizing the whole path again: a walk of thousands of files spent more time in
 * `join` than in listing directories.
 */
export function childPath(dir: string, name: string): string {
  if (dir === "." || dir === `.${sep}`) return name;
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/** Total order: newest first, then by path. */
export function compareNewestFirst(a: RolloutFile, b: RolloutFile): number {
  return b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/**
 * Finds every `*.jsonl` under `root` (the store's `YYYY/MM/DD/rollout-*.jsonl` layout and any
 * other nesting). Directories reached through symbolic links are not descended, so a cycle or
 * a link out of the store cannot widen the scan; a linked file is kept only if it lies inside.
 */
export async function walkRollouts(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  let realRoot: string;
  let isDirectory: boolean;
  try {
    // Blocking, as the walk's own calls are: a first call through the thread pool starts its
    // threads and costs a command a few milliseconds.
    realRoot = realpathSync.native(root);
    isDirectory = statSync(realRoot).isDirectory();
  } catch (e) {
    throw badField("root", `cannot be read (${(e as NodeJS.ErrnoException).code ?? "unknown error"})`);
  }
  if (!isDirectory) throw badField("root", "is not a directory");
  const files: RolloutFile[] = [];
  let unreadable = 0;
  let unreadableDirs = 0;
  let outsideRoot = 0;
  // One rollout file: kept, or counted as unreadable or outside the root.
  const visit = (path: string, link: boolean): void => {
    try {
      if (link && !inside(realpathSync(path), realRoot)) {
        outsideRoot += 1;
        return;
      }
      const info = statSync(path);
      if (info.isFile()) files.push({ path, size: info.size, mtimeMs: info.mtimeMs });
    } catch {
      unreadable += 1;
    }
  };
  let sinceTurn = 0;
  // Counts a call; true when the loop is due a turn.
  const turnDue = (): boolean => {
    if (++sinceTurn < CALLS_PER_TURN) return false;
    sinceTurn = 0;
    return true;
  };
  const dirs = [normalize(root)];
  for (let dir = dirs.pop(); dir !== undefined; dir = dirs.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      unreadableDirs += 1;
      continue;
    }
    if (turnDue()) await nextTurn();
    for (const entry of entries) {
      const path = childPath(dir, entry.name);
      if (entry.isDirectory()) dirs.push(path);
      else if (entry.name.endsWith(ROLLOUT_SUFFIX) && (entry.isFile() || entry.isSymbolicLink())) {
        visit(path, entry.isSymbolicLink());
        if (turnDue()) await nextTurn();
      }
    }
  }
  files.sort(compareNewestFirst);
  const limit = options.limit ?? 0;
  if (limit > 0) return { files: files.slice(0, limit), unreadable: 0, unreadableDirs, outsideRoot };
  return { files, unreadable, unreadableDirs, outsideRoot };
}
