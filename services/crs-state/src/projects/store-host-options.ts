/** Options, observers and counters of the store-backed project host. */

import type { BatchReport } from "../journal/group-commit.js";
import type { StoreOptions } from "../config/store-options.js";
import type { CacheEvent, UnloadReason } from "./project-cache.js";

/** What the host reports as it works (wired to logs and metrics by the service). */
export interface HostEvents {
  /** A synced batch finished or failed. */
  readonly batch?: (r: BatchReport) => void;
  /** Something an operator should hear about: a repair, a skipped corruption, a lost project, the store failing or recovering. */
  readonly notice?: (event: string, fields: Record<string, string | number>) => void;
}

/** Options of {@link StoreHost}. */
export interface StoreHostOptions extends Partial<Omit<StoreOptions, "dataDir">> {
  /** Clock in Unix ms (engine stamps, commit times). @defaultValue Date.now */
  readonly now?: () => number;
  /** Observers. */
  readonly events?: HostEvents;
}

/** Counters an operator reads (the service exports them as metrics). */
export interface HostCounters {
  /** Projects recovered into memory. */
  projectsLoaded: number;
  /** Projects that left memory, by why. */
  projectsUnloaded: Record<UnloadReason, number>;
  /** Journal records cut aside after corruption because skip-corrupted was set. */
  recordsSkipped: number;
  /** Torn last records cut by repair. */
  tornTailsCut: number;
  /** Journals cut after corruption because skip-corrupted was set. */
  corruptionsSkipped: number;
  /** Snapshots passed over because they failed verification. */
  corruptSnapshots: number;
  /** Synced batches that failed. */
  writeFailures: number;
}

/** Counters before anything happened. */
export function zeroCounters(): HostCounters {
  return {
    projectsLoaded: 0,
    projectsUnloaded: { idle: 0, capacity: 0, write_failed: 0, deleted: 0 },
    recordsSkipped: 0,
    tornTailsCut: 0,
    corruptionsSkipped: 0,
    corruptSnapshots: 0,
    writeFailures: 0,
  };
}

/** A cache observer that counts loads and unloads in `counters` and tells `notice` about each. */
export function countingObserver(
  counters: HostCounters,
  notice: (event: string, fields: Record<string, string | number>) => void,
): (e: CacheEvent) => void {
  return (e) => {
    if (e.type === "loaded") {
      counters.projectsLoaded++;
      notice("project-loaded", { projectId: e.projectId });
    } else {
      counters.projectsUnloaded[e.reason]++;
      notice("project-unloaded", { projectId: e.projectId, reason: e.reason });
    }
  };
}
