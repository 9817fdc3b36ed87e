import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import type { GrpcServer } from "@crs/runtime";
import { ClauseService } from "@crs/contracts/gen/crs/state/v1/clause_pb";
import { CycleService } from "@crs/contracts/gen/crs/state/v1/cycle_pb";
import { HistoryService } from "@crs/contracts/gen/crs/state/v1/history_pb";
import { IndexService } from "@crs/contracts/gen/crs/state/v1/index_pb";
import { MaintenanceService } from "@crs/contracts/gen/crs/state/v1/maintenance_pb";
import { PersistenceService } from "@crs/contracts/gen/crs/state/v1/persistence_pb";
import { ProofService } from "@crs/contracts/gen/crs/state/v1/proof_pb";
import { QueryService } from "@crs/contracts/gen/crs/state/v1/query_pb";
import { SimilarityService } from "@crs/contracts/gen/crs/state/v1/similarity_pb";
import { StateService } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { StepService } from "@crs/contracts/gen/crs/state/v1/step_pb";
import { WatchService } from "@crs/contracts/gen/crs/state/v1/watch_pb";
import { maintenanceHandlers, type ServerFacts } from "./maintenance-handlers.js";
import { mapError } from "./status-map.js";

/**
 * Registers every crs.state.v1 service. Services whose behaviour needs the durable project store
 * are registered without handlers, so their methods answer UNIMPLEMENTED until that store exists.
 */
export function registerServices(server: GrpcServer, facts: ServerFacts): void {
  server.add(MaintenanceService, maintenanceHandlers(facts), { mapError });
  const pending: GenService<GenServiceMethods>[] = [StateService, WatchService, StepService, ProofService, ClauseService,
    SimilarityService, QueryService, IndexService, HistoryService, CycleService, PersistenceService];
  for (const service of pending) server.add(service, {}, { mapError });
}

export { mapError, reasons, STATUS_OF } from "./status-map.js";
export type { ServerFacts } from "./maintenance-handlers.js";
