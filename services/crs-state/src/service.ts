import { readFileSync } from "node:fs";
import type { ServiceDefinition } from "@crs/runtime";
import { crsStateFiles } from "@crs/contracts";
import { CRS_STATE_ENV, DEFAULTS } from "./config/index.js";
import { reasons, registerServices } from "./grpc/index.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

/** crs-state as a runnable service: configuration, contracts and handlers. */
export const crsState: ServiceDefinition<typeof CRS_STATE_ENV> = {
  name: "crs-state",
  reasons,
  defaults: DEFAULTS,
  env: CRS_STATE_ENV,
  files: crsStateFiles,
  setup: async ({ server }) => {
    registerServices(server, {
      version,
      startedAtUnixMs: Date.now(),
      now: Date.now,
      draining: () => server.draining,
      projectIds: () => [],
    });
    return async () => undefined;
  },
};
