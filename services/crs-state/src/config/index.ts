/** crs-state's listen defaults; every variable is documented in the README. */
export const DEFAULTS = {
  grpcAddress: "127.0.0.1:50051",
  metricsAddress: "127.0.0.1:9464",
} as const;

export { CRS_STATE_ENV, storeOptionsFromEnv } from "./store-env.js";
export type { CrsStateEnv } from "./store-env.js";
export { STORE_DEFAULTS } from "./store-options.js";
export type { StoreOptions } from "./store-options.js";
