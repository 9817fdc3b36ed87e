import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import type { GrpcServer, ServiceHandlers } from "@crs/runtime";
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
import { checkpointHandlers } from "./checkpoint-handlers.js";
import { clauseHandlers } from "./clause-handlers.js";
import { cycleHandlers } from "./cycle-handlers.js";
import type { HandlerDeps } from "./deps.js";
import { historyHandlers } from "./history-handlers.js";
import { indexHandlers } from "./index-handlers.js";
import { maintenanceHandlers, type ServerFacts } from "./maintenance-handlers.js";
import { persistenceHandlers } from "./persistence-handlers.js";
import { proofHandlers } from "./proof-handlers.js";
import { queryHandlers } from "./query-handlers.js";
import { similarityHandlers } from "./similarity-handlers.js";
import { projectHandlers } from "./state-handlers.js";
import { mapError } from "./status-map.js";
import { stepHandlers } from "./step-handlers.js";
import { watchMetrics } from "./watch-metrics.js";
import { watchHandlers, type WatchRegistry } from "./watch-handlers.js";

/** How often store-backed services re-read whether the store can write. */
export const HEALTH_POLL_MS = 250;

/**
 * Registers every crs.state.v1 service. Store-backed services report SERVING only while the host
 * can write; Persistence serves export and import only (its backup methods answer UNIMPLEMENTED) and never reports SERVING. Returns a function that stops following the host's state.
 */
export function registerServices(server: GrpcServer, facts: ServerFacts, limits: Pick<HandlerDeps, "maxImportBytes">): () => void {
  const deps: HandlerDeps = {
    host: facts.host,
    elapsed: () => performance.now(),
    maxMessageBytes: server.maxMessageBytes,
    maxImportBytes: limits.maxImportBytes,
  };
  server.add(MaintenanceService, maintenanceHandlers(facts), { mapError });
  const stored: string[] = [];
  const addStored = <S extends GenServiceMethods>(service: GenService<S>, handlers: ServiceHandlers<S>): void => {
    server.add(service, handlers, { mapError, managedHealth: true });
    stored.push(service.typeName);
  };
  addStored(StateService, { ...projectHandlers(deps), ...checkpointHandlers(deps) });
  addStored(StepService, stepHandlers(deps));
  addStored(ProofService, proofHandlers(deps));
  addStored(ClauseService, clauseHandlers(deps));
  addStored(SimilarityService, similarityHandlers(deps));
  addStored(QueryService, queryHandlers(deps));
  addStored(IndexService, indexHandlers(deps));
  addStored(HistoryService, historyHandlers(deps));
  addStored(CycleService, cycleHandlers(deps));
  const watches: WatchRegistry = { open: new Set() };
  addStored(WatchService, watchHandlers(deps, watches));
  watchMetrics(server.metrics.registry, facts.host, watches);
  addStored(PersistenceService, persistenceHandlers(deps));
  let last: boolean | undefined;
  const follow = (): void => {
    const serving = facts.host.serving() && !server.draining;
    if (serving === last) return;
    last = serving;
    for (const name of stored) server.setHealth(name, serving ? "SERVING" : "NOT_SERVING");
  };
  follow();
  const timer = setInterval(follow, HEALTH_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export { mapError, reasons } from "./status-map.js";
export type { ServerFacts } from "./maintenance-handlers.js";
