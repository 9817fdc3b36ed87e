/**
 * Tenancy: which projects are in memory. Projects load on first use (one load per project at a
 * time), the least recently used idle ones unload beyond the bound or after an idle time, and a
 * project whose recovery found damage stays marked DATA_LOSS while the others keep serving; one
 * stored in a newer format than this server reads is refused without being read again.
 */

import type { CrsStateError } from "../errors.js";
import type { LoadedProject } from "./loaded-project.js";
import type { ProjectMeta } from "./project-meta.js";

/** A project that could not be recovered. */
export interface LostProject {
  /** Its catalogue entry (uid and id), when that still decoded. */
  readonly meta: ProjectMeta | undefined;
  /** The PROJECT_DATA_LOSS error calls get. */
  readonly error: CrsStateError;
}

/** A project stored in a newer format than this server reads: intact, but never readable here, so not read again. */
export interface RefusedProject {
  /** The FORMAT_UNSUPPORTED error calls get. */
  readonly refused: CrsStateError;
}

type Entry = { readonly loaded: LoadedProject } | { readonly lost: LostProject } | RefusedProject;

/**
 * Loads a project: a LoadedProject, a LostProject when its data is damaged, a RefusedProject
 * when it is stored in a newer format; throws for anything else.
 */
export type ProjectLoader = (projectId: string) => Promise<LoadedProject | LostProject | RefusedProject>;

/** Why a project left memory: idle too long, room for others, its write failed (reloaded on next use), deleted. */
export type UnloadReason = "idle" | "capacity" | "write_failed" | "deleted";

/** What the cache reports: a project recovered into memory, or one leaving it. */
export type CacheEvent =
  | { readonly type: "loaded"; readonly projectId: string }
  | { readonly type: "unloaded"; readonly projectId: string; readonly reason: UnloadReason };

/** The projects in memory, least recently used first. */
export class ProjectCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<LoadedProject>>();

  /** Keeps at most `max` loaded projects; `observe` hears every load and unload. */
  constructor(
    private readonly load: ProjectLoader,
    private readonly max: number,
    private readonly now: () => number,
    private readonly observe: (e: CacheEvent) => void = () => undefined,
  ) {}

  /** The loaded project, loading it when needed; PROJECT_NOT_FOUND, PROJECT_DATA_LOSS or FORMAT_UNSUPPORTED. */
  async get(projectId: string): Promise<LoadedProject> {
    const entry = this.entries.get(projectId);
    if (entry !== undefined) {
      if ("lost" in entry) throw entry.lost.error;
      if ("refused" in entry) throw entry.refused;
      this.touch(projectId, entry);
      return entry.loaded;
    }
    let loading = this.loading.get(projectId);
    if (loading === undefined) {
      loading = this.loadOnce(projectId);
      this.loading.set(projectId, loading);
    }
    return loading;
  }

  private async loadOnce(projectId: string): Promise<LoadedProject> {
    try {
      const result = await this.load(projectId);
      if ("error" in result) {
        this.entries.set(projectId, { lost: result });
        throw result.error;
      }
      if ("refused" in result) {
        this.entries.set(projectId, result);
        throw result.refused;
      }
      this.put(result);
      this.observe({ type: "loaded", projectId });
      return result;
    } finally {
      this.loading.delete(projectId);
    }
  }

  /** The damaged project recorded under `projectId`, if any. */
  lost(projectId: string): LostProject | undefined {
    const e = this.entries.get(projectId);
    return e !== undefined && "lost" in e ? e.lost : undefined;
  }

  /**
   * The loaded project, marked as used, without a promise; undefined when it is not in memory
   * (absent, loading or lost), where {@link ProjectCache.get} takes over.
   */
  use(projectId: string): LoadedProject | undefined {
    const entry = this.entries.get(projectId);
    if (entry === undefined || !("loaded" in entry)) return undefined;
    this.touch(projectId, entry);
    return entry.loaded;
  }

  /** The loaded project, without loading or touching it. */
  peek(projectId: string): LoadedProject | undefined {
    const e = this.entries.get(projectId);
    return e !== undefined && "loaded" in e ? e.loaded : undefined;
  }

  /** Adds a project created or recovered elsewhere, unloading idle ones beyond the bound. */
  put(project: LoadedProject): void {
    this.touch(project.meta.projectId, { loaded: project });
    this.shrink();
  }

  /** Drops `project` (only if it is still the one held under its id). */
  evict(project: LoadedProject): void {
    const e = this.entries.get(project.meta.projectId);
    if (e !== undefined && "loaded" in e && e.loaded === project) this.drop(project.meta.projectId, "write_failed");
  }

  /** Forgets whatever is held under `projectId` (after a delete). */
  forget(projectId: string): void {
    const e = this.entries.get(projectId);
    if (e !== undefined && "loaded" in e) this.drop(projectId, "deleted");
    else this.entries.delete(projectId);
  }

  private drop(projectId: string, reason: UnloadReason): void {
    this.entries.delete(projectId);
    this.observe({ type: "unloaded", projectId, reason });
  }

  /** How many projects are held as damaged (DATA_LOSS). */
  lostCount(): number {
    let n = 0;
    for (const e of this.entries.values()) if ("lost" in e) n++;
    return n;
  }

  /** Unloads the idle projects last used before `before` (host clock). */
  unloadIdleSince(before: number): number {
    let n = 0;
    for (const [id, e] of [...this.entries]) {
      if ("loaded" in e && e.loaded.idle && e.loaded.lastUsed < before) {
        this.drop(id, "idle");
        n++;
      }
    }
    return n;
  }

  /** Ids of the loaded projects, ascending. */
  loadedIds(): string[] {
    return [...this.entries]
      .filter(([, e]) => "loaded" in e)
      .map(([id]) => id)
      .sort();
  }

  private touch(projectId: string, entry: Entry): void {
    if ("loaded" in entry) entry.loaded.lastUsed = this.now();
    this.entries.delete(projectId);
    this.entries.set(projectId, entry);
  }

  private shrink(): void {
    let loaded = [...this.entries.values()].filter((e) => "loaded" in e).length;
    for (const [id, e] of this.entries) {
      if (loaded <= this.max) return;
      // A project with writes in flight stays until they settle; the bound is reached again later.
      if ("loaded" in e && e.loaded.idle) {
        this.drop(id, "capacity");
        loaded--;
      }
    }
  }
}
