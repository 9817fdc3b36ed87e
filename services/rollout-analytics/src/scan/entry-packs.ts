import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { entryLine, entryText, newPackName, PACK_SUFFIX, packPaths, packText, tempOf } from "./pack-format.js";
import { prunePacks, type PruneOutcome } from "./prune-packs.js";
import type { CacheNotWritten } from "./types.js";

// Packs read at once.
const READS = 8;

/** One entry to store: the absolute path of its rollout and its JSON text (one line). */
export interface PackEntry {
  readonly path: string;
  readonly text: string;
}

/**
 * The files of a per-rollout cache kept as packs: each pack holds the entries of a batch of
 * rollouts scanned together, so a scan creates one file per batch instead of one per rollout.
 * A pack is written to a temporary name and renamed, never synced: an entry is only a saving, so
 * a pack lost in a crash is recomputed, and a torn or corrupt one reads as missing entries (each
 * entry line carries the checksum of its text, see {@link entryLine}).
 * A rollout scanned again gets its entry in a new pack; the prune drops the stale one.
 */
export class EntryPacks {
  readonly #dir: string;
  #ready = false;
  // What each pack read by `readAll` or written for this scan holds, and which of its entries the scan took or wrote.
  readonly #seen = new Map<string, { paths: string[]; used: boolean[] }>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  /**
   * Reads every pack, handing each entry's rollout path and line to `take`, which answers
   * whether the scan uses it. Memory holds a few packs at a time, never the whole cache.
   */
  async #readAll(take: (path: string, line: string) => boolean, signal?: AbortSignal): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(this.#dir)).filter((n) => n.endsWith(PACK_SUFFIX)).sort();
    } catch {
      return;
    }
    for (let i = 0; i < names.length; i += READS) {
      signal?.throwIfAborted();
      const batch = names.slice(i, i + READS);
      const texts = await Promise.all(batch.map((n) => readFile(join(this.#dir, n), "utf8").catch(() => null)));
      batch.forEach((name, k) => {
        const text = texts[k];
        if (typeof text === "string") this.#take(name, text, take);
      });
    }
  }

  #take(name: string, text: string, take: (path: string, text: string) => boolean): void {
    const lines = text.split("\n");
    const paths = packPaths(lines[0] ?? "") ?? [];
    const used = paths.map((path, i) => take(path, lines[i + 1] ?? ""));
    this.#seen.set(name, { paths, used });
  }

  /**
   * Hands `onHit` the entry of each of `paths` (absolute) whose JSON `accept` takes, with the
   * path's index; `accept` answers what to hand over, or undefined for an entry that does not
   * apply. One entry per rollout: a later pack holding another for it is stale.
   */
  async reuse<T>(
    paths: readonly string[],
    accept: (entry: unknown, index: number) => T | undefined,
    onHit: (index: number, value: T) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const wanted = new Map<string, number>();
    paths.forEach((path, i) => wanted.set(path, i));
    await this.#readAll((path, line) => {
      const i = wanted.get(path);
      if (i === undefined) return false;
      // An entry whose checksum fails was changed on disk: it is a miss, read again.
      const text = entryText(line);
      if (text === null) return false;
      let value: T | undefined;
      try {
        value = accept(JSON.parse(text), i);
      } catch {
        return false;
      }
      if (value === undefined) return false;
      wanted.delete(path);
      onHit(i, value);
      return true;
    }, signal);
  }

  /**
   * Why no pack can be written here, or null when a file could be written and removed: tried once
   * before the files are read, so a cache that cannot be written is told once, not per pack.
   */
  async unwritable(): Promise<CacheNotWritten | null> {
    const temp = tempOf(join(this.#dir, newPackName()));
    try {
      await mkdir(this.#dir, { recursive: true });
      this.#ready = true;
      await writeFile(temp, "");
      await rm(temp);
      return null;
    } catch (e) {
      await rm(temp, { force: true }).catch(() => undefined);
      return { dir: this.#dir, code: (e as NodeJS.ErrnoException).code ?? "WRITE_FAILED" };
    }
  }

  /** Writes one pack of `entries` and notes it as the scan's own; its name, or null when there was nothing to write or it could not be written. */
  async write(entries: readonly PackEntry[]): Promise<string | null> {
    if (entries.length === 0) return null;
    const { name, target, temp, text } = this.#pack(entries);
    try {
      if (!this.#ready) await mkdir(this.#dir, { recursive: true });
      this.#ready = true;
      await writeFile(temp, text);
      await rename(temp, target);
    } catch {
      await rm(temp, { force: true }).catch(() => undefined);
      return null;
    }
    for (const e of entries) this.adopt(name, e.path);
    return name;
  }

  /** {@link write} with blocking writes, for a worker thread; the pack is left for its scan to {@link adopt}. */
  writeSync(entries: readonly PackEntry[]): string | null {
    if (entries.length === 0) return null;
    const { name, target, temp, text } = this.#pack(entries);
    try {
      if (!this.#ready) mkdirSync(this.#dir, { recursive: true });
      this.#ready = true;
      writeFileSync(temp, text);
      renameSync(temp, target);
      return name;
    } catch {
      rmSync(temp, { force: true });
      return null;
    }
  }

  /**
   * Notes the next entry of pack `name` (entries in the pack's order) as one this scan wrote, so
   * the prune knows the pack without reading it back.
   */
  adopt(name: string, path: string): void {
    const known = this.#seen.get(name);
    if (known === undefined) this.#seen.set(name, { paths: [path], used: [true] });
    else {
      known.paths.push(path);
      known.used.push(true);
    }
  }

  // A new pack's name, its path, the temporary path it is written under, and its text.
  #pack(entries: readonly PackEntry[]): { name: string; target: string; temp: string; text: string } {
    const name = newPackName();
    const target = join(this.#dir, name);
    return {
      name,
      target,
      temp: tempOf(target),
      text: packText(
        entries.map((e) => e.path),
        entries.map((e) => entryLine(e.text)),
      ),
    };
  }

  /**
   * Drops stale entries (of rollouts in `present` the scan took or wrote anew elsewhere, of
   * others whose file is gone) and, over `maxBytes`, the least recently written packs, the
   * current scan's last. See {@link prunePacks}.
   */
  prune(present: readonly string[], maxBytes: number): Promise<PruneOutcome> {
    return prunePacks(this.#dir, { present: new Set(present), seen: this.#seen, maxBytes });
  }
}
