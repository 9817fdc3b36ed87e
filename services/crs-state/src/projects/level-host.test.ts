import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LevelStore } from "../store/level-store.js";
import { checkpointConformance } from "./checkpoint-conformance.js";
import { hostConformance } from "./host-conformance.js";

const level = async () => {
  const dir = await mkdtemp(join(tmpdir(), "crs-host-"));
  return {
    store: await LevelStore.open(dir),
    reopen: () => LevelStore.open(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
};
hostConformance("the classic-level store", level);
checkpointConformance("the classic-level store", level);
