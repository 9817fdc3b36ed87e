/** Projects: the host the gRPC handlers use, and its implementations. */

export { DEFAULT_REQUEST_ID_RETENTION } from "./project-host.js";
export type {
  CheckpointHost,
  CheckpointInfo,
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
