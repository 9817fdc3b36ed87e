import type { CallRow } from "../analytics/calls.js";
import { compareText as cmp } from "../corpus/order.js";
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

type Tally = Map<string, { tool: string; sig: string; count: number }>;

function bump(rows: Tally, c: CallRow): void {
  const key = `${c.sig}\u0000${c.tool}`;
  const row = rows.get(key) ?? { tool: c.tool, sig: c.sig, count: 0 };
  row.count += 1;
  rows.set(key, row);
}

function ranked(rows: Tally): SigRow[] {
  return [...rows.values()].sort((a, b) => b.count - a.count || cmp(a.sig, b.sig) || cmp(a.tool, b.tool));
}

/** The detectors' counts, kept per signature and per file as calls close, never per call. */
export class BehaviorTally {
  readonly #failures: Tally = new Map();
  readonly #successes: Tally = new Map();
  readonly #edits = new Map<string, number>();
  #timeoutKills = 0;
  #sleepPolls = 0;
  #stallGaps = 0;
  #maxGapMs = 0;

  /** Counts one classified call. */
  call(c: CallRow): void {
    if (c.cls === "timeout") this.#timeoutKills += 1;
    if (c.sleepPoll) this.#sleepPolls += 1;
    for (const f of c.targets) this.#edits.set(f, (this.#edits.get(f) ?? 0) + 1);
    // An unknown command (redacted or undecodable arguments) is no evidence of repetition.
    if (c.head === "") return;
    if (countsAsFailure(c.cls)) bump(this.#failures, c);
    else if (c.cls === "ok") bump(this.#successes, c);
  }

  /** Counts one task's stalls. */
  split(s: Pick<TaskSplit, "idleGaps" | "maxGapMs">): void {
    this.#stallGaps += s.idleGaps;
    this.#maxGapMs = Math.max(this.#maxGapMs, s.maxGapMs);
  }

  /** The detectors' findings. */
  result(): Behavior {
    const failures = ranked(this.#failures);
    const successes = ranked(this.#successes);
    const edits = [...this.#edits.entries()]
      .map(([file, count]) => ({ file, count }))
      .sort((a, b) => b.count - a.count || cmp(a.file, b.file));
    return {
      timeoutKills: this.#timeoutKills,
      sleepPolls: this.#sleepPolls,
      stallGaps: this.#stallGaps,
      maxGapS: this.#maxGapMs / 1000,
      repeatFailures: failures.filter((r) => r.count >= REPEAT_FAILURE_MIN),
      maxRepeatFailure: failures[0]?.count ?? 0,
      successLoops: successes.filter((r) => r.count >= SUCCESS_LOOP_MIN),
      maxSuccessLoop: successes[0]?.count ?? 0,
      editChurn: edits.filter((r) => r.count >= EDIT_CHURN_MIN),
      maxEditChurn: edits[0]?.count ?? 0,
    };
  }
}

/** Runs the detectors over a rollout's calls and task splits. */
export function detectBehavior(calls: readonly CallRow[], splits: readonly TaskSplit[]): Behavior {
  const tally = new BehaviorTally();
  for (const c of calls) tally.call(c);
  for (const s of splits) tally.split(s);
  return tally.result();
}
