import type { Contributor } from "../critical-path.js";
import type { RolloutMeta } from "../decode/record.js";
import type { Behavior } from "../detectors/behavior.js";
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

/** Everything learned from one rollout. */
export interface RolloutAnalytics {
  readonly meta: RolloutMeta;
  readonly lifecycle: FoldReport;
  readonly tasks: readonly TaskAnalytics[];
  readonly calls: number;
  readonly outcomes: readonly CallOutcome[];
  /** Outputs whose call id matched no call in their task. */
  readonly unmatchedOutputs: number;
  readonly goalContinuations: number;
  readonly behavior: Behavior;
  /** Result-to-next-model-record spans, in file order. */
  readonly postTool: readonly PostToolSpan[];
  readonly substantiveCompleted: boolean;
  readonly completedWithTrailingAbort: boolean;
}
