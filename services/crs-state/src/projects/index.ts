/** Projects: the host the gRPC handlers use, and its implementations. */

export { DEFAULT_REQUEST_ID_RETENTION } from "./project-host.js";
export type {
  CheckpointHost,
  CheckpointInfo,
  CreatedProject,
  CreateProjectOptions,
  ForkSource,
  MutationOutcome,
  MutationRequest,
  PageRequest,
  ProjectHeader,
  ProjectHost,
  ProjectPage,
  ProjectStatus,
  ProjectSummary,
  ProjectView,
  ReadOnlyEngine,
  ReadOptions,
} from "./project-host.js";
export { StoreHost } from "./store-host.js";
export type { CommitEvent, CommitListener, CommitSource } from "./commit-feed.js";
export type { HostCounters, HostEvents, StoreHostOptions } from "./store-host-options.js";
export type { UnloadReason } from "./project-cache.js";
export { openProjectHost } from "./open-host.js";
export type { OpenHostOptions } from "./open-host.js";
export { ID_PATTERN, requireValidId } from "./project-ids.js";
export { oldestSnapshotGeneration, snapshotOf } from "./retained-snapshots.js";
