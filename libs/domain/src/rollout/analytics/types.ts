import type { Contributor } from "../critical-path.js";
import type { RolloutMeta } from "../decode/record.js";
import type { ErrorFacts } from "../corpus/census.js";
import type { PostToolPartial } from "../corpus/types.js";
import type { Behavior } from "../detectors/behavior.js";
import type { HealthFacts } from "../health/session.js";
import type { UsageFold } from "../usage/fold.js";
import type { FoldReport } from "../lifecycle/types.js";
import type { Confidence, Outcome, Provenance, ToolClass } from "../vocabulary.js";
import type { PostToolSpan } from "./post-tool.js";

/** Where a task's time-to-first-token came from. */
export type TtftSource = "producer" | "first_model_record";

/** One task with its time split and classified calls. */
export interface TaskAnalytics {
  readonly turnId: string;
  readonly outcome: Outcome;
  readonly provenance: Provenance;
  readonly wallMs: number;
  /** The producer's `duration_ms`, when it wrote one. */
  readonly recordedMs: number | null;
  /** -1 when unobserved. */
  readonly ttftMs: number;
  readonly ttftSource: TtftSource | null;
  readonly toolMs: number;
  readonly waitMs: number;
  readonly modelMs: number;
  readonly idleMs: number;
  readonly toolCalls: number;
  readonly compactions: number;
  readonly idleGaps: number;
  readonly classes: Readonly<Partial<Record<ToolClass, number>>>;
  readonly critical: readonly Contributor[];
  readonly trailingEmptyAbort: boolean;
  readonly rolledBack: boolean;
  /** True for a turn opened without a start (see the fold's implicit turns). */
  readonly implicit: boolean;
}

/** One classified call, body-free. */
export interface CallOutcome {
  readonly turnId: string;
  readonly tool: string;
  readonly cls: ToolClass;
  readonly reason: string;
  readonly confidence: Confidence;
  readonly spanMs: number;
  readonly sig: string;
}

/** One tool's calls in a rollout. */
export interface ToolTotals {
  readonly calls: number;
  readonly failures: number;
  readonly timeouts: number;
  /** Sum of the calls' spans. */
  readonly ms: number;
}

/** Counts over every call of a rollout, kept as each call is classified. */
export interface CallTotals {
  /** Calls by class. */
  readonly classes: Readonly<Record<string, number>>;
  /** Calls by `class:reason`. */
  readonly reasons: Readonly<Record<string, number>>;
  /** Calls by tool name. */
  readonly byTool: Readonly<Record<string, ToolTotals>>;
}

/** Everything learned from one rollout. */
export interface RolloutAnalytics {
  readonly meta: RolloutMeta;
  readonly lifecycle: FoldReport;
  readonly tasks: readonly TaskAnalytics[];
  readonly calls: number;
  /** Classified calls in file order, cut at the fold's listing limit (all when it has none). */
  readonly outcomes: readonly CallOutcome[];
  /** True when `outcomes` was cut. */
  readonly outcomesTruncated: boolean;
  readonly callTotals: CallTotals;
  /** Outputs whose call id matched no call in their task. */
  readonly unmatchedOutputs: number;
  readonly goalContinuations: number;
  readonly behavior: Behavior;
  /** Result-to-next-model-record spans, in file order, cut at the fold's listing limit. */
  readonly postTool: readonly PostToolSpan[];
  readonly substantiveCompleted: boolean;
  readonly completedWithTrailingAbort: boolean;
}

/** A rollout folded: its analytics plus what the corpus partial reads besides them. */
export interface FoldedRollout {
  readonly analytics: RolloutAnalytics;
  /** Lifecycle records as written, before the fold pairs them. */
  readonly raw: { readonly started: number; readonly complete: number; readonly aborted: number };
  readonly health: HealthFacts;
  readonly errors: ErrorFacts;
  /** Every post-tool span summed, whatever the listing limit (empty when the fold kept no samples). */
  readonly postTool: PostToolPartial;
  /** Token usage, named when the partial is made. */
  readonly usage: UsageFold;
}
