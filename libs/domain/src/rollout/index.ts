// Public surface of the rollout fold; consumers import "@crs/domain/rollout".
export { RolloutError, type RolloutErrorCode, type RolloutErrorOptions } from "./errors.js";
export {
  OUTCOMES,
  TOOL_CLASSES,
  countsAsFailure,
  HEAD_MAX_BYTES,
  STALL_THRESHOLD_MS,
  REPEAT_FAILURE_MIN,
  SUCCESS_LOOP_MIN,
  EDIT_CHURN_MIN,
  TRAILING_ABORT_MAX_MS,
  FINDING_FLOOR,
  DEFAULT_TOP_N,
  HEALTH_SCHEMA,
  COMPACTION_BUDGET,
  REASON_FRESH,
  REASON_STALE,
  REASON_SUPERSEDED_PREFIX,
  REASON_IMPLICIT_NEXT_TURN,
  REASON_ERROR_PREFIX,
  IMPLICIT_TURN_PREFIX,
  type Outcome,
  type Provenance,
  type ToolClass,
  type Confidence,
} from "./vocabulary.js";
export { decodeLine, decodeOversizedLine } from "./decode/decode-line.js";
export { collectRollout, RolloutCollector, type DecodedRollout, type RolloutCensus, type RecordSink } from "./decode/collect.js";
export { EMPTY_META, providerVersion } from "./decode/meta.js";
export type {
  RolloutRecord,
  RecordKind,
  RolloutMeta,
  DecodedLine,
  SkipReason,
  CallPayloadKind,
  LifecycleKind,
  UserMessageSource,
} from "./decode/record.js";
export { classifyTurnError, affectsTurnStatus, TURN_ERROR_CLASSES, type TurnErrorClass } from "./turn-error.js";
export { decodeEnvelope, type Envelope, type EnvelopeKind } from "./envelope.js";
export { classifyOutcome, type ToolOutcome } from "./outcome.js";
export { EXPECTED_NEGATIVE_PROBES, CONTROL_EXIT_PROBES, matchProbe, type ProbeRule, type ProbeToken } from "./probes.js";
export { functionCallHead, freeformCallHead, localShellHead, argvCommand, truncateUtf8, type CallHead } from "./command-head.js";
export { patchTargets } from "./patch-targets.js";
export { signatureOf } from "./signature.js";
export { classifyZeroTool, ZERO_TOOL_CATEGORIES, type ZeroToolCategory } from "./zero-tool.js";
export { fold, knownDurationMs } from "./lifecycle/fold.js";
export { foldEventsOf } from "./lifecycle/events.js";
export type { FoldEvent, FoldEventKind, FoldOptions, FoldReport, FoldedTask } from "./lifecycle/types.js";
export { analyzeRollout, foldRecords, type AnalyzeInput } from "./analytics/analyze.js";
export { RolloutFold, type RolloutFoldOptions } from "./analytics/rollout-fold.js";
export type { RolloutAnalytics, TaskAnalytics, CallOutcome, TtftSource, CallTotals, ToolTotals, FoldedRollout } from "./analytics/types.js";
export { criticalPath, type Contributor, type TaskSplit } from "./critical-path.js";
export type { Behavior, SigRow, ChurnRow } from "./detectors/behavior.js";
export { sessionHealth, type SessionHealth, type HealthFacts } from "./health/session.js";
export { partialOfRollout, partialOfFold, type PartialInput, type FoldPartialInput } from "./corpus/partial.js";
export { emptyPartial, unreadablePartial, outOfScopePartial } from "./corpus/empty.js";
export { mergePartials, mergeAll } from "./corpus/merge.js";
export { CorpusSum } from "./corpus/corpus-sum.js";
export { sessionOfFile } from "./session-name.js";
export { outliersCutTo } from "./corpus/ranking.js";
export { percentiles, type Percentiles } from "./corpus/percentiles.js";
export {
  PARTIAL_VERSION,
  type CorpusPartial,
  type LifecycleCounts,
  type ToolAgg,
  type Outlier,
  type ResumeCohort,
  type HealthSessionRow,
  type AnalyticsPartial,
  type HealthPartial,
  type ErrorsPartial,
  type PostToolPartial,
} from "./corpus/types.js";
export { countsOf } from "./corpus/partial.js";
export { lifecycleReport, type LifecycleReportJson, type CountsJson } from "./report/lifecycle-report.js";
export { analyticsReport, hardFailureCount, type AnalyticsReportJson } from "./report/analytics-report.js";
export { healthReport, type HealthReportJson } from "./report/health-report.js";
export { sessionHealthJson } from "./report/session-health-json.js";
export { unknownPayloadTypes } from "./corpus/census.js";
export { foldReportJson, rolloutAnalyticsJson, type RolloutAnalyticsJsonOptions } from "./report/rollout-report.js";
export { firstListed, type Listed, type ListingOptions } from "./report/listing.js";
export {
  reconcileReport,
  reconcileRow,
  RECONCILE_SCHEMA,
  type ReconcileReportJson,
  type ReconcileRowJson,
} from "./report/reconcile-report.js";
export {
  postToolReport,
  postToolSpansMs,
  POST_TOOL_SCHEMA,
  type PostToolReportJson,
  type PostToolBucketJson,
  type PostToolSpansMs,
} from "./report/post-tool-report.js";
export {
  contextBand,
  ordinalBucket,
  type PostToolSpan,
  type PostToolAttribution,
  type ContextBand,
  type OrdinalBucket,
} from "./analytics/post-tool.js";
export { errorClassReport, ERROR_CLASS_SCHEMA, type ErrorClassReportJson } from "./report/error-class-report.js";
export { classifyAbort, classifyStatusClasses, type AbortClass, type StatusClass } from "./error-class.js";
export { isFresh, sameCwd, cleanPath, type FreshnessInput, type SameCwdOptions } from "./scope.js";
export { decideRetention } from "./retention/plan.js";
export { boundQuarantine, type QuarantineItem, type QuarantineBound, type QuarantineReceipt } from "./retention/quarantine.js";
export { retentionJson } from "./retention/json-text.js";
export { reportJson } from "./report/report-json.js";
export {
  PROTECT_REASONS,
  MAX_BYTES,
  type ByteCount,
  type RetentionClass,
  type ProtectReason,
  type SessionRecord,
  type RetentionContract,
  type Decision,
  type RetentionManifest,
} from "./retention/types.js";
export {
  createPrng,
  corpusRollouts,
  generateRollout,
  secretPlanter,
  PLANTED_SECRET_MARKER,
  DEFAULT_CORPUS_FROM_MS,
  DEFAULT_CORPUS_SPAN_DAYS,
  type Prng,
  type CorpusOptions,
  type GeneratedRollout,
  type RolloutSpec,
  type RolloutEra,
  type SecretPlace,
  type SecretPlanter,
} from "./generate/index.js";
export {
  tokenCountUsage,
  usageOfRecords,
  UsageCollector,
  usageLineVerdict,
  USAGE_HEAD_BYTES,
  emptyUsage,
  mergeUsage,
  UsageSum,
  parsePricing,
  costOf,
  usageReport,
  usageRowModels,
  USAGE_SCHEMA,
  USAGE_GROUPINGS,
  USAGE_VERSION,
  UNKNOWN_MODEL,
  type TokenFigures,
  type TokenCountUsage,
  type PricingTable,
  type ModelPrice,
  type UsageGrouping,
  type UsageReportJson,
  type UsageRowJson,
  type UsageFiguresJson,
  type UsagePartial,
  type SessionUsage,
  type RolloutUsage,
  type UsageLineVerdict,
} from "./usage/index.js";
export { parseTimestamp } from "./time.js";
