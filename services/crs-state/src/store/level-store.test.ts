import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LevelStore } from "./level-store.js";
import { storeConformance } from "./store-conformance.js";

storeConformance("classic-level", async () => {
  const dir = await mkdtemp(join(tmpdir(), "crs-store-"));
  return {
    store: await LevelStore.open(dir),
    reopen: () => LevelStore.open(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
