import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pruneCache, type PruneOutcome } from "./prune-cache.js";

/** A per-file cache's default home, `<$XDG_CACHE_HOME or ~/.cache>/crs-rollout-analytics/<kind>`. */
export function userCacheDir(kind: string): string {
  const base = process.env["XDG_CACHE_HOME"]?.trim() || join(homedir(), ".cache");
  return join(base, "crs-rollout-analytics", kind);
}

/**
 * The files of a per-rollout cache: one JSON entry per rollout, named by the hash of the
 * rollout's absolute path. Entries are written to a temporary name and renamed, so a crash
 * leaves either the old entry or the new one; an unreadable entry reads as none, and a failed
 * write only costs the reuse. What an entry holds and when it applies is the cache's own rule.
 */
export class EntryFiles {
  readonly #dir: string;
  #ready: Promise<unknown> | null = null;

  constructor(dir: string) {
    this.#dir = dir;
  }

  #entryPath(absolutePath: string): string {
    return join(this.#dir, `${createHash("sha256").update(absolutePath).digest("hex")}.json`);
  }

  #tempOf(target: string): string {
    return `${target}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  }

  /** The parsed entry of the rollout at `absolutePath`, or undefined when there is none readable. */
  async read(absolutePath: string): Promise<unknown> {
    try {
      return JSON.parse(await readFile(this.#entryPath(absolutePath), "utf8")) as unknown;
    } catch {
      return undefined;
    }
  }

  /** Writes the entry text of the rollout at `absolutePath`; false when it could not be written. */
  async write(absolutePath: string, text: string): Promise<boolean> {
    const target = this.#entryPath(absolutePath);
    const temp = this.#tempOf(target);
    try {
      this.#ready ??= mkdir(this.#dir, { recursive: true });
      await this.#ready;
      await writeFile(temp, text);
      await rename(temp, target);
      return true;
    } catch {
      await rm(temp, { force: true }).catch(() => undefined);
      return false;
    }
  }

  /** {@link write} with blocking writes, for a worker thread. */
  writeSync(absolutePath: string, text: string): boolean {
    const target = this.#entryPath(absolutePath);
    const temp = this.#tempOf(target);
    try {
      if (this.#ready === null) {
        mkdirSync(this.#dir, { recursive: true });
        this.#ready = Promise.resolve();
      }
      writeFileSync(temp, text);
      renameSync(temp, target);
      return true;
    } catch {
      rmSync(temp, { force: true });
      return false;
    }
  }

  /** Removes entries of rollouts not in `present` and, over `maxBytes`, the least recently written; see {@link pruneCache}. */
  prune(present: readonly string[], maxBytes: number): Promise<PruneOutcome> {
    return pruneCache(this.#dir, new Set(present.map((p) => basename(this.#entryPath(resolve(p))))), maxBytes);
  }
}
