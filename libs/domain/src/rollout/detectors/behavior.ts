import type { CallRow } from "../analytics/calls.js";
import type { TaskSplit } from "../critical-path.js";
import { countsAsFailure, EDIT_CHURN_MIN, REPEAT_FAILURE_MIN, SUCCESS_LOOP_MIN } from "../vocabulary.js";

/** A repeated call signature. */
export interface SigRow {
  readonly tool: string;
  readonly sig: string;
  readonly count: number;
}

/** A file edited repeatedly. */
export interface ChurnRow {
  readonly file: string;
  readonly count: number;
}

/** Whole-rollout behaviour detectors. */
export interface Behavior {
  readonly timeoutKills: number;
  readonly sleepPolls: number;
  readonly stallGaps: number;
  readonly maxGapS: number;
  readonly repeatFailures: readonly SigRow[];
  readonly maxRepeatFailure: number;
  readonly successLoops: readonly SigRow[];
  readonly maxSuccessLoop: number;
  readonly editChurn: readonly ChurnRow[];
  readonly maxEditChurn: number;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function tally(calls: readonly CallRow[], keep: (c: CallRow) => boolean): SigRow[] {
  const rows = new Map<string, { tool: string; sig: string; count: number }>();
  for (const c of calls) {
    // An unknown command (redacted or undecodable arguments) is no evidence of repetition.
    if (c.head === "" || !keep(c)) continue;
    const key = `${c.sig}\u0000${c.tool}`;
    const row = rows.get(key) ?? { tool: c.tool, sig: c.sig, count: 0 };
    row.count += 1;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => b.count - a.count || cmp(a.sig, b.sig) || cmp(a.tool, b.tool));
}

function churn(calls: readonly CallRow[]): ChurnRow[] {
  const byFile = new Map<string, number>();
  for (const c of calls) for (const f of c.targets) byFile.set(f, (byFile.get(f) ?? 0) + 1);
  return [...byFile.entries()].map(([file, count]) => ({ file, count })).sort((a, b) => b.count - a.count || cmp(a.file, b.file));
}

/** Runs the detectors over a rollout's calls and task splits. */
export function detectBehavior(calls: readonly CallRow[], splits: readonly TaskSplit[]): Behavior {
  const failures = tally(calls, (c) => countsAsFailure(c.cls));
  const successes = tally(calls, (c) => c.cls === "ok");
  const edits = churn(calls);
  return {
    timeoutKills: calls.filter((c) => c.cls === "timeout").length,
    sleepPolls: calls.filter((c) => c.sleepPoll).length,
    stallGaps: splits.reduce((n, s) => n + s.idleGaps, 0),
    maxGapS: splits.reduce((m, s) => Math.max(m, s.maxGapMs / 1000), 0),
    repeatFailures: failures.filter((r) => r.count >= REPEAT_FAILURE_MIN),
    maxRepeatFailure: failures[0]?.count ?? 0,
    successLoops: successes.filter((r) => r.count >= SUCCESS_LOOP_MIN),
    maxSuccessLoop: successes[0]?.count ?? 0,
    editChurn: edits.filter((r) => r.count >= EDIT_CHURN_MIN),
    maxEditChurn: edits[0]?.count ?? 0,
  };
}
