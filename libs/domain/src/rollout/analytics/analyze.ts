import type { RolloutMeta, RolloutRecord } from "../decode/record.js";
import { RolloutFold } from "./rollout-fold.js";
import type { FoldedRollout, RolloutAnalytics } from "./types.js";

/** Inputs of {@link analyzeRollout}. */
export interface AnalyzeInput {
  readonly meta: RolloutMeta | null;
  readonly records: readonly RolloutRecord[];
  /** Whether the rollout may still be written; decided by the caller. */
  readonly fresh: boolean;
}

/** Folds a rollout's records held in memory: each is pushed into the streaming fold in turn. */
export function foldRecords(input: AnalyzeInput): FoldedRollout {
  const fold = new RolloutFold();
  // Kept records leave the session_meta out: it goes first, where the producer writes it.
  if (input.meta !== null) fold.push({ kind: "session_meta", meta: input.meta, timestamp: "", tsMs: null });
  for (const r of input.records) fold.push(r);
  return fold.finish({ meta: input.meta, fresh: input.fresh });
}

/** Folds, joins, splits and runs the detectors over one rollout's records. */
export function analyzeRollout(input: AnalyzeInput): RolloutAnalytics {
  return foldRecords(input).analytics;
}
