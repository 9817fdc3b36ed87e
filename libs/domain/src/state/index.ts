/** Public surface of the state engine, exported by name. */

export { compareUtf8, sortUtf8, utf8Length } from "./bytes.js";
export { STATE_ERROR_CODES, StateError, isStateError } from "./errors.js";
export type { StateErrorCode, StateErrorOptions } from "./errors.js";
export { DEFAULT_CIRCUIT_BREAKER_THRESHOLDS, DEFAULT_STATE_CONFIG, resolveConfig } from "./config.js";
export type { StateConfig } from "./config.js";
export { PROOF_STATUSES, SIGNAL_SOURCES, isHard, isValidSource, weakerSource } from "./signals.js";
export type { ProofStatus, SignalSource } from "./signals.js";

export { DEFAULT_PROOF_NUMBER, PROOF_INFINITY, initialProofNumber } from "./proof/proof-number.js";
export type { ProofNumber } from "./proof/proof-number.js";
export { PROOF_UPDATE_TYPES, nextProofNumber, validateProofUpdate } from "./proof/proof-update.js";
export type { ProofUpdate, ProofUpdateType } from "./proof/proof-update.js";
export { checkCircuitBreaker, circuitBreakerThreshold, toolNodeId } from "./proof/circuit-breaker.js";
export type { CircuitBreakerResult } from "./proof/circuit-breaker.js";

export { CONSTRAINT_TYPES } from "./constraints/constraint.js";
export type { Constraint, ConstraintType } from "./constraints/constraint.js";

export {
  CLAUSE_SCOPES,
  clauseSignature,
  clauseString,
  closedWorldAssignment,
  explicitAssignment,
  isViolated,
  literalString,
} from "./clauses/clause.js";
export type { Assignment, Clause, ClauseScope, Literal } from "./clauses/clause.js";
export type { AddClauseResult, ClauseCheckResult, ClauseInput } from "./clauses/clause-store.js";
export { decisionAssignment } from "./clauses/decision-assignment.js";

export type { Neighbor, SimilarityPair } from "./similarity/similarity-index.js";
export type { DependencyEdge } from "./dependency/dependency-index.js";
export { MAX_METADATA_KEY_BYTES, MAX_METADATA_VALUE_BYTES } from "./history/history-index.js";
export type { HistoryEntry } from "./history/history-index.js";
export { DEFAULT_HLL_PRECISION, hyperLogLogStandardError } from "./streaming/hyperloglog.js";
export { DEFAULT_SKETCH_DEPTH, DEFAULT_SKETCH_WIDTH, countMinErrorBound } from "./streaming/count-min.js";
export type { StreamingIncrement } from "./streaming/streaming-index.js";

export { ACTORS, DECISIONS, ERROR_CATEGORIES, OUTCOMES, isRetryable, makeStep, validateStep } from "./steps/step-record.js";
export type { Actor, Decision, ErrorCategory, Outcome, StepRecord } from "./steps/step-record.js";
export { analyticsDoneKey, analyticsFoundKey, hasResults } from "./analytics/analytics-record.js";
export type { AnalyticsRecord } from "./analytics/analytics-record.js";

export { DELTA_KINDS, compositeDelta, deltaSource, indexesAffected } from "./delta/delta.js";
export type {
  AnalyticsDelta,
  CompositeDelta,
  ConstraintDelta,
  Delta,
  DeltaKind,
  DependencyDelta,
  HistoryDelta,
  IndexName,
  ProofDelta,
  ProofEntry,
  SimilarityDelta,
  SimilarityUpdate,
  StreamingDelta,
} from "./delta/delta.js";
export { validateDelta } from "./delta/apply.js";
export type { ApplyContext } from "./delta/apply.js";
export { deltaFromJson, deltaToJson } from "./delta/codec.js";
export type { DeltaJson, ProofEntryJson } from "./delta/codec.js";
export { mergeDeltas, mergeDeltasStrict } from "./delta/merge.js";
export { deltasConflict } from "./delta/conflict.js";
export { affectedNodes } from "./delta/affected-nodes.js";
export { describeDelta } from "./delta/describe.js";
export type { ChangeKind, DeltaRecord } from "./delta-history/delta-record.js";

export { EMPTY_STATE } from "./project-state.js";
export type { ProjectState } from "./project-state.js";
export { Snapshot } from "./snapshot.js";
export { SnapshotRing } from "./engine/snapshot-ring.js";
export type { PairsPage } from "./snapshot-views.js";
export {
  AnalyticsView,
  ConstraintView,
  DeltaHistoryView,
  DependencyView,
  HistoryView,
  ProofView,
  SimilarityView,
  StepView,
  StreamingView,
} from "./snapshot-views.js";
export { QueryAPI } from "./query/query-api.js";
export type { HotNode, NodeStats } from "./query/query-api.js";

export { STATE_EVENT_FORMAT, STATE_EVENT_TYPES, eventFormatOf, proofUpdateToJson } from "./events/event.js";
export type {
  ClauseAddedEvent,
  ClauseUsedEvent,
  ClausesCollectedEvent,
  CycleCheckedEvent,
  CycleDetectorResetEvent,
  DeltaAppliedEvent,
  DisproofPropagatedEvent,
  EventBase,
  EventBody,
  EventOf,
  ProofUpdateJson,
  ProofUpdatedEvent,
  SessionEndedEvent,
  SimilarityRecordedEvent,
  StateEvent,
  StateEventType,
  StateImportedEvent,
  StateRestoredEvent,
  StepRecordedEvent,
} from "./events/event.js";
export { applyEvent, replayEvents } from "./events/replay.js";
export { StateEngine } from "./engine/engine.js";
export type {
  ApplyOptions,
  Checkpoint,
  CycleOptions,
  DecisionVerdict,
  EngineOptions,
  Mutation,
  MutationOptions,
} from "./engine/engine-types.js";
export type { TransitionResults } from "./engine/run-event.js";

export { STATE_DOCUMENT_FORMAT, toDocument } from "./export/document.js";
export type {
  CycleDetectorDocument,
  ModGenerationField,
  ProofEntryDocument,
  SessionStepsDocument,
  StateDocument,
  StreamingDocument,
} from "./export/document.js";
export { fromDocument, isUnsupportedDocument } from "./export/import.js";

export { REDACTED, SECRET_PATTERNS, sanitizeMetadata, sanitizeSecrets } from "./sanitize/secret-sanitizer.js";
export type { SecretPattern } from "./sanitize/secret-sanitizer.js";
export { computeSummary, referenceExport, rfc3339 } from "./export/summary.js";
export type { StateSummary } from "./export/summary.js";

export { CycleDetector, stepStateKey, toolStateKey } from "./cycles/cycle-detector.js";
export {
  DEFAULT_CYCLE_HISTORY,
  MAX_CYCLE_HISTORY,
  detectorStats,
  emptyDetector,
  feedDetector,
  resetDetector,
} from "./cycles/detector-state.js";
export type { CycleDetection, CycleDetectorState, CycleDetectorStats } from "./cycles/detector-state.js";
export { checkCycleOnStep } from "./cycles/cycle-on-step.js";
export { stateNodeId } from "./cycles/cycle-transition.js";
export type { CycleCheckResult } from "./cycles/cycle-transition.js";
export { CycleView } from "./cycles/cycle-view.js";
export { ENTRY_INDEXES, similarityEntryKey } from "./entries/mod-generations.js";
export type { EntryIndex, ModGenerations } from "./entries/mod-generations.js";
export type { ExpectedEntry } from "./entries/preconditions.js";
export { entryChangedSince } from "./entries/changed-since.js";
export type { ChangedEntry } from "./entries/changed-since.js";
export { tarjanScc } from "./cycles/tarjan.js";
export type { DecisionGraph } from "./cycles/tarjan.js";
export { analyzeSessionCycles, buildDecisionGraph } from "./cycles/session-cycles.js";
export type { CycleAnalysis } from "./cycles/session-cycles.js";
export { TraceRecorder, traceStepToStepRecord } from "./trace/trace-recorder.js";
export type { TraceOptions, TraceStep } from "./trace/trace-recorder.js";
