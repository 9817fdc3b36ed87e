import { existsSync } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** Default bound of the partial cache on disk: far above a large store's entries (about 30 MB per GB of rollouts). */
export const DEFAULT_CACHE_MAX_BYTES = 512 * 1024 * 1024;

// Temporary files older than this are left over from a crashed writer; newer ones may be in use.
const STALE_TEMP_MS = 60 * 60 * 1000;
// Entries stat'ed or read at once.
const BATCH = 64;

/** What a prune removed. */
export interface PruneOutcome {
  /** Entries whose rollout file no longer exists (or that could not be read back). */
  readonly gone: number;
  /** Entries removed to bring the directory under its size bound. */
  readonly overCap: number;
  /** Bytes of entries left. */
  readonly bytes: number;
}

interface Entry {
  readonly name: string;
  readonly size: number;
  readonly mtimeMs: number;
}

async function inBatches<T, R>(items: readonly T[], f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(...(await Promise.all(items.slice(i, i + BATCH).map(f))));
  return out;
}

// The rollout path an entry was written for, or null when the entry is unreadable or corrupt.
async function entryPath(file: string): Promise<string | null> {
  try {
    const entry = JSON.parse(await readFile(file, "utf8")) as { path?: unknown };
    return typeof entry.path === "string" ? entry.path : null;
  } catch {
    return null;
  }
}

/**
 * Prunes a partial cache directory. Entries named in `current` (those of the scan just made)
 * are known to be present; every other entry is read back and removed when the file it was
 * written for no longer exists. Then, while the entries exceed `maxBytes`, the least recently
 * written go first, the current scan's last. Entries are only ever a saving, so removing one
 * costs at most a read of its file on the next scan.
 */
export async function pruneCache(dir: string, current: ReadonlySet<string>, maxBytes: number): Promise<PruneOutcome> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { gone: 0, overCap: 0, bytes: 0 };
  }
  const now = Date.now();
  const stats = await inBatches(names, async (name): Promise<Entry | null> => {
    try {
      const info = await stat(join(dir, name));
      return info.isFile() ? { name, size: info.size, mtimeMs: info.mtimeMs } : null;
    } catch {
      return null;
    }
  });
  const entries: Entry[] = [];
  const doomed: string[] = [];
  for (const e of stats) {
    if (e === null) continue;
    if (e.name.endsWith(".json")) entries.push(e);
    else if (e.name.endsWith(".tmp") && now - e.mtimeMs > STALE_TEMP_MS) doomed.push(e.name);
  }
  const others = entries.filter((e) => !current.has(e.name));
  const paths = await inBatches(others, (e) => entryPath(join(dir, e.name)));
  const gone = new Set(others.filter((_, i) => paths[i] === null || !existsSync(paths[i] ?? "")).map((e) => e.name));
  const kept = entries.filter((e) => !gone.has(e.name));
  let bytes = kept.reduce((n, e) => n + e.size, 0);
  let overCap = 0;
  if (bytes > maxBytes) {
    // Oldest first, the current scan's entries after all others.
    const order = [...kept].sort((a, b) => Number(current.has(a.name)) - Number(current.has(b.name)) || a.mtimeMs - b.mtimeMs);
    for (const e of order) {
      if (bytes <= maxBytes) break;
      doomed.push(e.name);
      bytes -= e.size;
      overCap += 1;
    }
  }
  await inBatches([...gone, ...doomed], (name) => rm(join(dir, name), { force: true }).catch(() => undefined));
  return { gone: gone.size, overCap, bytes };
}
