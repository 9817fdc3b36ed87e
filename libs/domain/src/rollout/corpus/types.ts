import type { Contributor } from "../critical-path.js";
import type { ZeroToolCategory } from "../zero-tool.js";
import type { Outcome, ToolClass } from "../vocabulary.js";
import type { UsagePartial } from "../usage/types.js";

/** Version stamp of the partial format, checked before merging. */
export const PARTIAL_VERSION = 7;

/** Lifecycle counters for one row (all rollouts, or one provider/version). */
export interface LifecycleCounts {
  rollouts: number;
  starts: number;
  unmatchedBefore: number;
  rolloutsWithGap: number;
  superseded: number;
  processDeath: number;
  live: number;
  complete: number;
  aborted: number;
  completedWithTrailingAbort: number;
  substantiveCompleted: number;
  unclassifiedAfter: number;
  orphans: number;
  reused: number;
  multiplyTerminated: number;
  /** Raw lifecycle events as written, before reconciliation (orphans included). */
  rawStarted: number;
  rawComplete: number;
  rawAborted: number;
  /** Tasks opened without a start (implicit turns); they are also in `starts` and the outcome counts. */
  implicit: number;
  /** Implicit tasks left open at the end, by outcome. */
  implicitLive: number;
  implicitProcessDeath: number;
  /** Implicit tasks ended by an unkeyed abort or an error event. */
  implicitAborted: number;
  /** Tasks ended by an error event (counted as `aborted`). */
  errored: number;
}

/** Per-tool rollup. */
export interface ToolAgg {
  calls: number;
  failures: number;
  timeouts: number;
  ms: number;
}

/** A long task kept as an outlier candidate. */
export interface Outlier {
  readonly session: string;
  readonly turnId: string;
  readonly outcome: Outcome;
  readonly durationS: number;
  /** null when no first token was observed. */
  readonly ttftS: number | null;
  readonly idleS: number;
  readonly top: readonly Contributor[];
}

/** Tasks of headless `codex exec` rollouts resumed by a goal continuation. */
export interface ResumeCohort {
  started: number;
  usefulWorkReached: number;
  completed: number;
  crashed: number;
  superseded: number;
  failureReasons: Record<string, number>;
}

/** A session worth naming in the health report. */
export interface HealthSessionRow {
  readonly session: string;
  readonly model: string;
  readonly turns: number;
  readonly toolCalls: number;
  readonly zeroToolTurns: number;
  readonly refusedTurns: number;
}

/** Analytics half of a partial. */
export interface AnalyticsPartial {
  sessions: number;
  tasks: number;
  completed: number;
  toolCalls: number;
  /** Ascending seconds of completed tasks. */
  durations: number[];
  /** Ascending seconds to first token. */
  ttfts: number[];
  outcomes: Partial<Record<Outcome, number>>;
  classes: Partial<Record<ToolClass, number>>;
  /** Keyed `<class>:<reason>`. */
  reasons: Record<string, number>;
  byTool: Record<string, ToolAgg>;
  /** Best candidates, ranked, at most `outlierKeep`. */
  outliers: Outlier[];
  outlierKeep: number;
  timeoutKills: number;
  sleepPolls: number;
  stallGaps: number;
  resume: ResumeCohort;
}

/** Health half of a partial. */
export interface HealthPartial {
  scannedFiles: number;
  sessionsWithTurns: number;
  turns: number;
  toolCalls: number;
  aborted: number;
  superseded: number;
  unterminated: number;
  zeroTool: Record<ZeroToolCategory, number>;
  /** Ascending compaction occupancies. */
  occupancies: number[];
  /** Sessions with refusal loops, ranked. */
  refusalLoops: HealthSessionRow[];
  /** Sessions with turn inflation, ranked. */
  inflation: HealthSessionRow[];
}

/** Error-class census half of a partial. */
export interface ErrorsPartial {
  /** Rollouts read. */
  sessions: number;
  tornTails: number;
  /** Rollouts with at least one unknown payload type. */
  rolloutsWithUnknown: number;
  /** turn_aborted records read. */
  turnAborted: number;
  /** task_complete records read. */
  taskComplete: number;
  /** task_complete records whose final message names at least one status class. */
  terminalsWithClass: number;
  payloadTypes: Record<string, number>;
  unknownPayloadTypes: Record<string, number>;
  abortClasses: Record<string, number>;
  statusClasses: Record<string, number>;
  /** Error events by class, whether or not they ended a turn. */
  turnErrorClasses: Record<string, number>;
  /** Lines longer than the reader holds, decoded from their leading text only. */
  oversizedLines: number;
}

/** Post-tool span half of a partial. */
export interface PostToolPartial {
  /** Rollouts with at least one span or skipped tail result. */
  sessions: number;
  spans: number;
  /** Tool results with no later model record, so no span. */
  tailSkipped: number;
  /** Spans with at least one compaction inside the gap. */
  compactionInGap: number;
  attribution: Record<string, number>;
  /** Ascending gap samples (ms) per cell `<band> <bucket>` (see `post-tool-cells.ts`): each span once. */
  gapByCell: Record<string, number[]>;
  /** Ascending tool-time samples (ms) per cell, as `gapByCell`. */
  toolByCell: Record<string, number[]>;
}

/** Mergeable, JSON-serializable summary of any set of rollouts. */
export interface CorpusPartial {
  version: typeof PARTIAL_VERSION;
  unreadable: number;
  /** Files read but left out because their recorded cwd is outside the scan's scope. */
  outOfScope: number;
  lifecycle: { scanned: number; totals: LifecycleCounts; byProviderVersion: Record<string, LifecycleCounts> };
  analytics: AnalyticsPartial;
  health: HealthPartial;
  errors: ErrorsPartial;
  postTool: PostToolPartial;
  /** Token usage by day, model and session. */
  usage: UsagePartial;
}
