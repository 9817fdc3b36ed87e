/** crs-state's listen defaults; every variable is documented in the README. */
export const DEFAULTS = {
  grpcAddress: "127.0.0.1:50051",
  metricsAddress: "127.0.0.1:9464",
} as const;

/** crs-state's own environment variables, beyond the runtime's common ones (none yet). */
export const CRS_STATE_ENV = {};

export { STORE_DEFAULTS } from "./store-options.js";
export type { StoreOptions } from "./store-options.js";
