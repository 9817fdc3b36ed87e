import { existsSync } from "node:fs";
import { open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PACK_SUFFIX, packPaths, packText, tempOf } from "./pack-format.js";

/** Default bound of the partial cache on disk: far above a large store's entries (about 30 MB per GB of rollouts). */
export const DEFAULT_CACHE_MAX_BYTES = 512 * 1024 * 1024;

/** What a prune removed. */
export interface PruneOutcome {
  /** Entries whose rollout file no longer exists (or that could not be read back). */
  readonly gone: number;
  /** Entries removed to bring the directory under its size bound. */
  readonly overCap: number;
  /** Bytes of entries left. */
  readonly bytes: number;
}

// Temporary files older than this are left over from a crashed writer; newer ones may be in use.
const STALE_TEMP_MS = 60 * 60 * 1000;
// Files stat'ed, read or removed at once.
const BATCH = 32;
// Entry files of the cache's earlier layout, one per rollout: never read any more.
const LEGACY_SUFFIX = ".json";

/** What a scan's read of one pack found: the rollout path of each entry, and whether the scan took it. */
export interface PackInfo {
  readonly paths: readonly string[];
  readonly used: readonly boolean[];
}

/** Inputs of {@link prunePacks}. */
export interface PackPruneInput {
  /** Absolute paths of the rollouts the scan covered. */
  readonly present: ReadonlySet<string>;
  /** Packs the scan read, by file name. */
  readonly seen: ReadonlyMap<string, PackInfo>;
  readonly maxBytes: number;
}

interface Pack {
  readonly name: string;
  size: number;
  readonly mtimeMs: number;
  readonly paths: readonly string[];
  readonly used: readonly boolean[];
  live: boolean[];
}

async function inBatches<T, R>(items: readonly T[], f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(...(await Promise.all(items.slice(i, i + BATCH).map(f))));
  return out;
}

// The first line of a file, read by its leading bytes; "" when unreadable.
async function firstLine(file: string): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, "r");
    const parts: Buffer[] = [];
    for (let at = 0; ; ) {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      const got = buffer.subarray(0, bytesRead);
      const nl = got.indexOf(0x0a);
      parts.push(nl === -1 ? got : got.subarray(0, nl));
      if (nl !== -1 || bytesRead === 0) break;
      at += bytesRead;
    }
    return Buffer.concat(parts).toString("utf8");
  } catch {
    return "";
  } finally {
    await handle?.close();
  }
}

// Rewrites a pack with only its live entries; its new size, or null when that failed.
async function rewrite(file: string, pack: Pack): Promise<number | null> {
  const temp = tempOf(file);
  try {
    const lines = (await readFile(file, "utf8")).split("\n");
    const paths = packPaths(lines[0] ?? "");
    if (paths === null || paths.length !== pack.paths.length) return null;
    const keep = paths.flatMap((_, i) => (pack.live[i] === true ? [i] : []));
    const text = packText(
      keep.map((i) => paths[i] ?? ""),
      keep.map((i) => lines[i + 1] ?? ""),
    );
    await writeFile(temp, text);
    await rename(temp, file);
    return Buffer.byteLength(text);
  } catch {
    await rm(temp, { force: true }).catch(() => undefined);
    return null;
  }
}

/**
 * Prunes a directory of entry packs so that each rollout keeps at most one entry. An entry the
 * scan took stays; an entry of a rollout the scan covered but did not take is stale (the scan
 * read the file again and wrote its entry to a new pack) and goes; an entry of another rollout
 * stays while its file exists. Packs the scan did not read (written since, by it or another
 * process) are judged by their index line alone. A pack left without entries is removed, one
 * with some stale entries rewritten. Then, while the packs exceed `maxBytes`, the least
 * recently written go first, those holding the current scan's entries last. Leftover
 * temporary files and entry files of the earlier one-file-per-rollout layout are removed.
 */
export async function prunePacks(dir: string, input: PackPruneInput): Promise<PruneOutcome> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { gone: 0, overCap: 0, bytes: 0 };
  }
  const now = Date.now();
  const doomed: string[] = [];
  const stats = await inBatches(names, async (name) => {
    try {
      const info = await stat(join(dir, name));
      return info.isFile() ? { name, size: info.size, mtimeMs: info.mtimeMs } : null;
    } catch {
      return null;
    }
  });
  const packs: Pack[] = [];
  const unseen: { name: string; size: number; mtimeMs: number }[] = [];
  for (const s of stats) {
    if (s === null) continue;
    if (s.name.endsWith(PACK_SUFFIX)) {
      const info = input.seen.get(s.name);
      if (info === undefined) unseen.push(s);
      else packs.push({ ...s, paths: info.paths, used: info.used, live: [] });
    } else if (s.name.endsWith(LEGACY_SUFFIX) || (s.name.endsWith(".tmp") && now - s.mtimeMs > STALE_TEMP_MS)) doomed.push(s.name);
  }
  const indexes = await inBatches(unseen, (s) => firstLine(join(dir, s.name)));
  unseen.forEach((s, i) => {
    const paths = packPaths(indexes[i] ?? "") ?? [];
    // Entries written since the scan read the cache are of this scan when it covered their rollout.
    packs.push({ ...s, paths, used: paths.map((p) => input.present.has(p)), live: [] });
  });
  // One entry per rollout: those the scan took or wrote claim it first, then any other whose file exists.
  const claimed = new Set<string>();
  for (const pack of packs)
    pack.live = pack.paths.map((p, i) => {
      const live = pack.used[i] === true && !claimed.has(p);
      if (live) claimed.add(p);
      return live;
    });
  for (const pack of packs)
    pack.paths.forEach((p, i) => {
      if (pack.live[i] === true || input.present.has(p) || claimed.has(p) || !existsSync(p)) return;
      pack.live[i] = true;
      claimed.add(p);
    });
  let gone = 0;
  const kept: Pack[] = [];
  await inBatches(packs, async (pack) => {
    const live = pack.live.filter(Boolean).length;
    gone += pack.paths.length - live;
    if (live === 0) doomed.push(pack.name);
    else if (live < pack.paths.length) {
      const size = await rewrite(join(dir, pack.name), pack);
      if (size === null) doomed.push(pack.name);
      else kept.push(Object.assign(pack, { size }));
    } else kept.push(pack);
  });
  let bytes = kept.reduce((n, p) => n + p.size, 0);
  let overCap = 0;
  if (bytes > input.maxBytes) {
    const current = (p: Pack): number => Number(p.paths.some((path, i) => p.live[i] === true && input.present.has(path)));
    // Oldest first, the packs holding the current scan's entries after all others.
    const order = [...kept].sort((a, b) => current(a) - current(b) || a.mtimeMs - b.mtimeMs || a.name.localeCompare(b.name));
    for (const p of order) {
      if (bytes <= input.maxBytes) break;
      doomed.push(p.name);
      bytes -= p.size;
      overCap += p.live.filter(Boolean).length;
    }
  }
  await inBatches(doomed, (name) => rm(join(dir, name), { force: true }).catch(() => undefined));
  return { gone, overCap, bytes };
}
