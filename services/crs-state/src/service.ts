import { readFileSync } from "node:fs";
import type { ServiceDefinition } from "@crs/runtime";
import { crsStateFiles } from "@crs/contracts";
import { JournalBackend } from "@crs/contracts/gen/crs/state/v1/maintenance_pb";
import { CRS_STATE_ENV, DEFAULTS, storeOptionsFromEnv } from "./config/index.js";
import { reasons, registerServices } from "./grpc/index.js";
import { hostTelemetry } from "./host-telemetry.js";
import { openProjectHost } from "./projects/index.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

/** crs-state as a runnable service: configuration, the project store and every handler. */
export const crsState: ServiceDefinition<typeof CRS_STATE_ENV> = {
  name: "crs-state",
  reasons,
  defaults: DEFAULTS,
  env: CRS_STATE_ENV,
  files: crsStateFiles,
  setup: async ({ config, server, logger }) => {
    const options = storeOptionsFromEnv(config);
    const telemetry = hostTelemetry(server.metrics.registry, logger);
    const host = await openProjectHost({ ...options, events: telemetry.events });
    telemetry.watch(host);
    logger.info({ dataDir: options.dataDir === "" ? "(memory)" : options.dataDir }, "project store open");
    const stopFollowing = registerServices(
      server,
      {
        version,
        startedAtUnixMs: Date.now(),
        now: Date.now,
        draining: () => server.draining,
        journalBackend: options.dataDir === "" ? JournalBackend.MEMORY : JournalBackend.LEVEL,
        host,
      },
      { maxImportBytes: options.maxImportBytes },
    );
    return async () => {
      stopFollowing();
      await host.close();
    };
  },
};
