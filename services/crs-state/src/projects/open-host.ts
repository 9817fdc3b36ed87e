/** Opens the project host the service runs: on classic-level when a data directory is set, else in memory. */

import { RuntimeError } from "@crs/runtime";
import type { StoreOptions } from "../config/store-options.js";
import { MemoryStore } from "../store/memory-store.js";
import type { ProjectStore } from "../store/project-store.js";
import { StoreHost } from "./store-host.js";
import type { StoreHostOptions } from "./store-host-options.js";

/** Options of {@link openProjectHost}. */
export interface OpenHostOptions extends StoreHostOptions {
  /** Directory of the classic-level store; "" or absent keeps projects in memory only. @defaultValue "" */
  readonly dataDir?: StoreOptions["dataDir"];
}

/** A host over a classic-level store in `dataDir`, or over memory when none is given. */
export async function openProjectHost(options: OpenHostOptions = {}): Promise<StoreHost> {
  const { dataDir, ...hostOptions } = options;
  const store: ProjectStore = dataDir === undefined || dataDir === "" ? new MemoryStore() : await openLevel(dataDir);
  return new StoreHost(store, hostOptions);
}

// A directory that cannot hold the store is a configuration fault: one line naming the variable.
async function openLevel(dataDir: string): Promise<ProjectStore> {
  const { LevelStore } = await import("../store/level-store.js");
  try {
    return await LevelStore.open(dataDir);
  } catch (e) {
    throw new RuntimeError("CONFIG_INVALID", `CRS_STATE_DATA_DIR=${dataDir} cannot hold the project store: ${(e as Error).message}`, {
      cause: e,
    });
  }
}
