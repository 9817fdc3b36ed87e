/** Options of the project host and its store, with their defaults. */

/** How the project host keeps projects in memory and on disk. */
export interface StoreOptions {
  /** Directory of the classic-level store; "" keeps everything in memory. @defaultValue "" */
  readonly dataDir: string;
  /** Most projects held in memory; the least recently used idle one is unloaded beyond it. @defaultValue 256 */
  readonly maxLoadedProjects: number;
  /** A project untouched this long is unloaded (ms). @defaultValue 600000 */
  readonly idleUnloadMs: number;
  /** A state snapshot is written after this many journal records. @defaultValue 10000 */
  readonly snapshotEveryRecords: number;
  /** ... or after this many journal bytes. @defaultValue 16777216 */
  readonly snapshotEveryBytes: number;
  /** Request ids remembered per project for idempotent retry. @defaultValue 10000 */
  readonly requestIdRetention: number;
  /** Most checkpoints one project holds; CreateCheckpoint beyond it is refused (each is a whole state copy). @defaultValue 1000 */
  readonly maxCheckpointsPerProject: number;
  /** Most backups one project holds; CreateBackup beyond it is refused (each is a whole compressed state copy). @defaultValue 100 */
  readonly maxBackupsPerProject: number;
  /** Cut a journal from its first damaged record on instead of refusing to load it (logged and counted). @defaultValue false */
  readonly skipCorrupted: boolean;
  /** How often a store that failed to write is probed (ms). @defaultValue 500 */
  readonly probeIntervalMs: number;
  /** Largest document ImportState takes, in bytes (it is held whole in memory to be verified). @defaultValue 268435456 */
  readonly maxImportBytes: number;
}

/** Defaults of {@link StoreOptions}. */
export const STORE_DEFAULTS: StoreOptions = Object.freeze({
  dataDir: "",
  maxLoadedProjects: 256,
  idleUnloadMs: 600_000,
  snapshotEveryRecords: 10_000,
  snapshotEveryBytes: 16 * 1024 * 1024,
  requestIdRetention: 10_000,
  maxCheckpointsPerProject: 1000,
  maxBackupsPerProject: 100,
  skipCorrupted: false,
  probeIntervalMs: 500,
  maxImportBytes: 256 * 1024 * 1024,
});
