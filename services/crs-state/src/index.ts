/** crs-state as a library, for tests and embedding. */
export { crsState } from "./service.js";
export { CrsStateError, type CrsStateErrorCode } from "./errors.js";
export { openProjectHost, StoreHost } from "./projects/index.js";
export type {
  MutationOutcome,
  MutationRequest,
  OpenHostOptions,
  ProjectHeader,
  ProjectHost,
  ProjectView,
  StoreHostOptions,
} from "./projects/index.js";
export { LevelStore, MemoryStore } from "./store/index.js";
export type { ProjectStore } from "./store/index.js";
