/** crs-state's own environment variables, beyond the runtime's common ones: where and how projects are stored. */

import { flag, integer, text, type EnvValues } from "@crs/runtime";
import { STORE_DEFAULTS, type StoreOptions } from "./store-options.js";

/** The variables (documented in the README). */
export const CRS_STATE_ENV = {
  CRS_STATE_DATA_DIR: text("Directory of the classic-level project store; empty keeps projects in memory only", STORE_DEFAULTS.dataDir),
  CRS_STATE_MAX_LOADED_PROJECTS: integer(
    "Most projects held in memory; the least recently used idle one is unloaded beyond it",
    STORE_DEFAULTS.maxLoadedProjects,
    1,
    1_000_000,
  ),
  CRS_STATE_IDLE_UNLOAD_MS: integer("A project untouched this many ms is unloaded", STORE_DEFAULTS.idleUnloadMs, 1000, 2_147_483_647),
  CRS_STATE_SNAPSHOT_EVERY_RECORDS: integer(
    "A state snapshot is written after this many journal records",
    STORE_DEFAULTS.snapshotEveryRecords,
    1,
    100_000_000,
  ),
  CRS_STATE_SNAPSHOT_EVERY_BYTES: integer(
    "... or after this many journal bytes",
    STORE_DEFAULTS.snapshotEveryBytes,
    1024,
    Number.MAX_SAFE_INTEGER,
  ),
  CRS_STATE_REQUEST_ID_RETENTION: integer(
    "Request ids remembered per project for idempotent retry",
    STORE_DEFAULTS.requestIdRetention,
    1,
    10_000_000,
  ),
  CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT: integer(
    "Most checkpoints one project holds; CreateCheckpoint beyond it is refused until one is deleted",
    STORE_DEFAULTS.maxCheckpointsPerProject,
    1,
    100_000,
  ),
  CRS_STATE_MAX_BACKUPS_PER_PROJECT: integer(
    "Most backups one project holds; CreateBackup beyond it is refused until one is deleted",
    STORE_DEFAULTS.maxBackupsPerProject,
    1,
    100_000,
  ),
  CRS_STATE_MAX_IMPORT_BYTES: integer(
    "Largest document ImportState takes, in bytes; a larger one is refused before it is held",
    STORE_DEFAULTS.maxImportBytes,
    1024,
    1024 * 1024 * 1024,
  ),
  CRS_STATE_SKIP_CORRUPTED: flag(
    "Cut a damaged journal from its first bad record instead of stopping the project (logged and counted)",
    STORE_DEFAULTS.skipCorrupted,
  ),
};

/** The typed values of {@link CRS_STATE_ENV}. */
export type CrsStateEnv = EnvValues<typeof CRS_STATE_ENV>;

/** The store options the variables select. */
export function storeOptionsFromEnv(env: CrsStateEnv): StoreOptions {
  return {
    ...STORE_DEFAULTS,
    dataDir: env.CRS_STATE_DATA_DIR,
    maxLoadedProjects: env.CRS_STATE_MAX_LOADED_PROJECTS,
    idleUnloadMs: env.CRS_STATE_IDLE_UNLOAD_MS,
    snapshotEveryRecords: env.CRS_STATE_SNAPSHOT_EVERY_RECORDS,
    snapshotEveryBytes: env.CRS_STATE_SNAPSHOT_EVERY_BYTES,
    requestIdRetention: env.CRS_STATE_REQUEST_ID_RETENTION,
    maxCheckpointsPerProject: env.CRS_STATE_MAX_CHECKPOINTS_PER_PROJECT,
    maxBackupsPerProject: env.CRS_STATE_MAX_BACKUPS_PER_PROJECT,
    skipCorrupted: env.CRS_STATE_SKIP_CORRUPTED,
    maxImportBytes: env.CRS_STATE_MAX_IMPORT_BYTES,
  };
}
