import type { DescFile } from "@bufbuild/protobuf";
import { file_crs_state_v1_clause } from "./gen/crs/state/v1/clause_pb.js";
import { file_crs_state_v1_common } from "./gen/crs/state/v1/common_pb.js";
import { file_crs_state_v1_cycle } from "./gen/crs/state/v1/cycle_pb.js";
import { file_crs_state_v1_errors } from "./gen/crs/state/v1/errors_pb.js";
import { file_crs_state_v1_history } from "./gen/crs/state/v1/history_pb.js";
import { file_crs_state_v1_index } from "./gen/crs/state/v1/index_pb.js";
import { file_crs_state_v1_maintenance } from "./gen/crs/state/v1/maintenance_pb.js";
import { file_crs_state_v1_persistence } from "./gen/crs/state/v1/persistence_pb.js";
import { file_crs_state_v1_proof } from "./gen/crs/state/v1/proof_pb.js";
import { file_crs_state_v1_query } from "./gen/crs/state/v1/query_pb.js";
import { file_crs_state_v1_similarity } from "./gen/crs/state/v1/similarity_pb.js";
import { file_crs_state_v1_state } from "./gen/crs/state/v1/state_pb.js";
import { file_crs_state_v1_step } from "./gen/crs/state/v1/step_pb.js";
import { file_crs_state_v1_watch } from "./gen/crs/state/v1/watch_pb.js";
import { file_crs_analytics_v1_errors } from "./gen/crs/analytics/v1/errors_pb.js";
import { file_crs_analytics_v1_retention } from "./gen/crs/analytics/v1/retention_pb.js";
import { file_crs_analytics_v1_rollout } from "./gen/crs/analytics/v1/rollout_pb.js";
import { file_crs_analytics_v1_scan } from "./gen/crs/analytics/v1/scan_pb.js";
import { file_grpc_health_v1_health } from "./gen/grpc/health/v1/health_pb.js";

/** Every descriptor file of `crs.state.v1`, for reflection (imports are followed automatically). */
export const crsStateFiles: readonly DescFile[] = [
  file_crs_state_v1_state,
  file_crs_state_v1_watch,
  file_crs_state_v1_step,
  file_crs_state_v1_proof,
  file_crs_state_v1_clause,
  file_crs_state_v1_similarity,
  file_crs_state_v1_query,
  file_crs_state_v1_index,
  file_crs_state_v1_history,
  file_crs_state_v1_cycle,
  file_crs_state_v1_persistence,
  file_crs_state_v1_maintenance,
  file_crs_state_v1_errors,
  file_crs_state_v1_common,
  file_grpc_health_v1_health,
];

/** Every descriptor file of `crs.analytics.v1`, for reflection. */
export const crsAnalyticsFiles: readonly DescFile[] = [
  file_crs_analytics_v1_scan,
  file_crs_analytics_v1_rollout,
  file_crs_analytics_v1_retention,
  file_crs_analytics_v1_errors,
  file_grpc_health_v1_health,
];
