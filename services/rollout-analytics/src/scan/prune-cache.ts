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
