import { RolloutError } from "../errors.js";
import { UsageSum } from "../usage/merge.js";
import { emptyPartial } from "./empty.js";
import { sortedRecord, sortedSample } from "./order.js";
import { compareInflation, compareOutliers, compareRefusals } from "./ranking.js";
import {
  PARTIAL_VERSION,
  type CorpusPartial,
  type HealthSessionRow,
  type LifecycleCounts,
  type Outlier,
  type ResumeCohort,
  type ToolAgg,
} from "./types.js";

type Numbers = Record<string, number>;

// Adds each number of `from` into `into`, key by key: the sum `mergePartials` makes of two
// objects of counters, kept in place.
function addInto(into: Numbers, from: object): void {
  for (const [k, v] of Object.entries(from) as [string, number][]) into[k] = (into[k] ?? 0) + v;
}

// A count map summed in place; its record comes out byte-ordered, as `sumCounts` leaves it.
class Counts {
  readonly #counts = new Map<string, number>();

  add(from: Readonly<Partial<Record<string, number>>>): void {
    for (const [k, v] of Object.entries(from)) if (v !== undefined) this.#counts.set(k, (this.#counts.get(k) ?? 0) + v);
  }

  record(): Numbers {
    // A running sum starts at zero, as `sumCounts` adds each side to it.
    return sortedRecord([...this.#counts].map(([k, v]): [string, number] => [k, 0 + v]));
  }
}

// Objects of counters by key, summed in place.
class Tables<T extends object> {
  readonly #tables = new Map<string, Numbers>();

  add(from: Readonly<Record<string, T>>): void {
    for (const [k, v] of Object.entries(from)) {
      const had = this.#tables.get(k);
      if (had === undefined) this.#tables.set(k, { ...(v as Numbers) });
      else addInto(had, v);
    }
  }

  record(): Record<string, T> {
    return sortedRecord([...this.#tables].map(([k, v]): [string, T] => [k, { ...v } as T]));
  }
}

// Runs merged one into the next, where sorting them all at once would cost more: the sum of a
// few large partials (the workers' sums) keeps their order instead of sorting it again.
const FEW_RUNS = 8;

// `a` merged with the ascending run `values[from..to)`, as `mergeSorted` merges two samples
// (equal values from `a` first), without copying the run out first.
function mergeRun(a: readonly number[], values: Float64Array, from: number, to: number): number[] {
  const out = new Array<number>(a.length + to - from);
  let i = 0;
  let j = from;
  let k = 0;
  while (i < a.length && j < to) {
    const x = a[i] as number;
    const y = values[j] as number;
    if (x <= y) {
      out[k++] = x;
      i += 1;
    } else {
      out[k++] = y;
      j += 1;
    }
  }
  while (i < a.length) out[k++] = a[i++] as number;
  while (j < to) out[k++] = values[j++] as number;
  return out;
}

// One sample, gathered as ascending runs (every partial's samples are ascending) and put in
// order once. The values live in one typed array: a corpus's samples run to hundreds of
// thousands of numbers, and a typed array holds them without boxes and sorts them in place.
class Sample {
  #values = new Float64Array(0);
  #length = 0;
  // Where each run starts in #values.
  #starts: number[] = [];

  add(run: readonly number[]): void {
    if (run.length === 0) return;
    const end = this.#length + run.length;
    if (end > this.#values.length) {
      const grown = new Float64Array(Math.max(end, Math.floor(this.#values.length * 1.5), 64));
      grown.set(this.#values.subarray(0, this.#length));
      this.#values = grown;
    }
    this.#values.set(run, this.#length);
    this.#starts.push(this.#length);
    this.#length = end;
  }

  sorted(): number[] {
    const starts = this.#starts;
    const values = this.#values.subarray(0, this.#length);
    if (starts.length <= FEW_RUNS) {
      let merged: number[] = [];
      for (let i = 0; i < starts.length; i += 1) merged = mergeRun(merged, values, starts[i] ?? 0, starts[i + 1] ?? values.length);
      return merged;
    }
    // A typed array puts -0 before 0 and NaN last, where a comparator sort leaves them in input
    // order: a sample holding either is sorted as `sortedSample` sorts it.
    for (const v of values) if (Number.isNaN(v) || Object.is(v, -0)) return sortedSample(values);
    values.sort();
    // Now one ascending run.
    this.#starts = [0];
    return Array.from(values);
  }
}

// Samples by key.
class Samples {
  readonly #samples = new Map<string, Sample>();

  add(from: Readonly<Record<string, readonly number[]>>): void {
    for (const [k, v] of Object.entries(from)) {
      let had = this.#samples.get(k);
      if (had === undefined) this.#samples.set(k, (had = new Sample()));
      had.add(v);
    }
  }

  record(): Record<string, number[]> {
    return sortedRecord([...this.#samples].map(([k, v]): [string, number[]] => [k, v.sorted()]));
  }
}

// A ranked list: rows gathered and, when it keeps only the first `keep`, cut back to them now and
// then. The first k of a union are among the first k of its parts, so the cut loses none of them.
class Ranked<T> {
  #rows: T[] = [];
  constructor(readonly compare: (a: T, b: T) => number) {}

  add(rows: readonly T[], keep: number | null): void {
    for (const r of rows) this.#rows.push(r);
    if (keep !== null && this.#rows.length > 4 * keep + 64) this.#rows = this.result(keep);
  }

  result(keep: number | null): T[] {
    const all = [...this.#rows].sort(this.compare);
    return keep === null ? all : all.slice(0, keep);
  }
}

/**
 * Sums any number of corpus partials in place: {@link CorpusSum.result} equals `mergePartials`
 * folded over the same partials, in any order. Merging pairwise copies every sample and map once
 * per level of the merge, O(log n) times over n files; this adds each partial once and sorts
 * once, at the end.
 */
export class CorpusSum {
  #added = 0;
  readonly #numbers = {
    unreadable: 0,
    outOfScope: 0,
    scanned: 0,
    sessions: 0,
    tasks: 0,
    completed: 0,
    analyticsToolCalls: 0,
    timeoutKills: 0,
    sleepPolls: 0,
    stallGaps: 0,
    scannedFiles: 0,
    sessionsWithTurns: 0,
    turns: 0,
    healthToolCalls: 0,
    aborted: 0,
    superseded: 0,
    unterminated: 0,
    errorSessions: 0,
    tornTails: 0,
    rolloutsWithUnknown: 0,
    turnAborted: 0,
    taskComplete: 0,
    terminalsWithClass: 0,
    oversizedLines: 0,
    postToolSessions: 0,
    spans: 0,
    tailSkipped: 0,
    compactionInGap: 0,
  };
  readonly #totals: Numbers = {};
  readonly #byProviderVersion = new Tables<LifecycleCounts>();
  readonly #samples = { durations: new Sample(), ttfts: new Sample(), occupancies: new Sample() };
  readonly #counts = {
    outcomes: new Counts(),
    classes: new Counts(),
    reasons: new Counts(),
    failureReasons: new Counts(),
    payloadTypes: new Counts(),
    unknownPayloadTypes: new Counts(),
    abortClasses: new Counts(),
    statusClasses: new Counts(),
    turnErrorClasses: new Counts(),
    attribution: new Counts(),
  };
  readonly #byTool = new Tables<ToolAgg>();
  readonly #outliers = new Ranked<Outlier>(compareOutliers);
  #outlierKeep = Number.POSITIVE_INFINITY;
  readonly #resume: Numbers = {};
  readonly #zeroTool: Numbers = {};
  readonly #refusalLoops = new Ranked<HealthSessionRow>(compareRefusals);
  readonly #inflation = new Ranked<HealthSessionRow>(compareInflation);
  readonly #gapByCell = new Samples();
  readonly #toolByCell = new Samples();
  readonly #usage = new UsageSum();

  /** Adds one partial; it is not changed or kept. */
  add(p: CorpusPartial): void {
    if (p.version !== PARTIAL_VERSION) {
      throw new RolloutError("PARTIAL_VERSION_MISMATCH", `partials has partial version ${String(p.version)}, want ${PARTIAL_VERSION}`, {
        field: "partials",
      });
    }
    this.#added += 1;
    const n = this.#numbers;
    const { analytics: a, health: h, errors: e, postTool: t, lifecycle: l } = p;
    n.unreadable += p.unreadable;
    n.outOfScope += p.outOfScope;
    n.scanned += l.scanned;
    addInto(this.#totals, l.totals);
    this.#byProviderVersion.add(l.byProviderVersion);
    n.sessions += a.sessions;
    n.tasks += a.tasks;
    n.completed += a.completed;
    n.analyticsToolCalls += a.toolCalls;
    this.#samples.durations.add(a.durations);
    this.#samples.ttfts.add(a.ttfts);
    this.#counts.outcomes.add(a.outcomes);
    this.#counts.classes.add(a.classes);
    this.#counts.reasons.add(a.reasons);
    this.#byTool.add(a.byTool);
    this.#outlierKeep = Math.min(this.#outlierKeep, a.outlierKeep);
    this.#outliers.add(a.outliers, this.#outlierKeep);
    n.timeoutKills += a.timeoutKills;
    n.sleepPolls += a.sleepPolls;
    n.stallGaps += a.stallGaps;
    const { failureReasons, ...resume } = a.resume;
    addInto(this.#resume, resume);
    this.#counts.failureReasons.add(failureReasons);
    n.scannedFiles += h.scannedFiles;
    n.sessionsWithTurns += h.sessionsWithTurns;
    n.turns += h.turns;
    n.healthToolCalls += h.toolCalls;
    n.aborted += h.aborted;
    n.superseded += h.superseded;
    n.unterminated += h.unterminated;
    addInto(this.#zeroTool, h.zeroTool);
    this.#samples.occupancies.add(h.occupancies);
    this.#refusalLoops.add(h.refusalLoops, null);
    this.#inflation.add(h.inflation, null);
    n.errorSessions += e.sessions;
    n.tornTails += e.tornTails;
    n.rolloutsWithUnknown += e.rolloutsWithUnknown;
    n.turnAborted += e.turnAborted;
    n.taskComplete += e.taskComplete;
    n.terminalsWithClass += e.terminalsWithClass;
    this.#counts.payloadTypes.add(e.payloadTypes);
    this.#counts.unknownPayloadTypes.add(e.unknownPayloadTypes);
    this.#counts.abortClasses.add(e.abortClasses);
    this.#counts.statusClasses.add(e.statusClasses);
    // Partials written before error classes were counted carry none.
    this.#counts.turnErrorClasses.add(e.turnErrorClasses ?? {});
    n.oversizedLines += e.oversizedLines;
    n.postToolSessions += t.sessions;
    n.spans += t.spans;
    n.tailSkipped += t.tailSkipped;
    n.compactionInGap += t.compactionInGap;
    this.#counts.attribution.add(t.attribution);
    this.#gapByCell.add(t.gapByCell);
    this.#toolByCell.add(t.toolByCell);
    this.#usage.add(p.usage);
  }

  /** The sum so far; the empty partial when nothing was added. */
  result(): CorpusPartial {
    if (this.#added === 0) return emptyPartial();
    const n = this.#numbers;
    const c = this.#counts;
    return {
      version: PARTIAL_VERSION,
      unreadable: n.unreadable,
      outOfScope: n.outOfScope,
      lifecycle: {
        scanned: n.scanned,
        totals: { ...this.#totals } as unknown as LifecycleCounts,
        byProviderVersion: this.#byProviderVersion.record(),
      },
      analytics: {
        sessions: n.sessions,
        tasks: n.tasks,
        completed: n.completed,
        toolCalls: n.analyticsToolCalls,
        durations: this.#samples.durations.sorted(),
        ttfts: this.#samples.ttfts.sorted(),
        outcomes: c.outcomes.record(),
        classes: c.classes.record(),
        reasons: c.reasons.record(),
        byTool: this.#byTool.record(),
        outliers: this.#outliers.result(this.#outlierKeep),
        outlierKeep: this.#outlierKeep,
        timeoutKills: n.timeoutKills,
        sleepPolls: n.sleepPolls,
        stallGaps: n.stallGaps,
        resume: { ...this.#resume, failureReasons: c.failureReasons.record() } as unknown as ResumeCohort,
      },
      health: {
        scannedFiles: n.scannedFiles,
        sessionsWithTurns: n.sessionsWithTurns,
        turns: n.turns,
        toolCalls: n.healthToolCalls,
        aborted: n.aborted,
        superseded: n.superseded,
        unterminated: n.unterminated,
        zeroTool: { ...this.#zeroTool } as CorpusPartial["health"]["zeroTool"],
        occupancies: this.#samples.occupancies.sorted(),
        refusalLoops: this.#refusalLoops.result(null),
        inflation: this.#inflation.result(null),
      },
      errors: {
        sessions: n.errorSessions,
        tornTails: n.tornTails,
        rolloutsWithUnknown: n.rolloutsWithUnknown,
        turnAborted: n.turnAborted,
        taskComplete: n.taskComplete,
        terminalsWithClass: n.terminalsWithClass,
        payloadTypes: c.payloadTypes.record(),
        unknownPayloadTypes: c.unknownPayloadTypes.record(),
        abortClasses: c.abortClasses.record(),
        statusClasses: c.statusClasses.record(),
        turnErrorClasses: c.turnErrorClasses.record(),
        oversizedLines: n.oversizedLines,
      },
      postTool: {
        sessions: n.postToolSessions,
        spans: n.spans,
        tailSkipped: n.tailSkipped,
        compactionInGap: n.compactionInGap,
        attribution: c.attribution.record(),
        gapByCell: this.#gapByCell.record(),
        toolByCell: this.#toolByCell.record(),
      },
      usage: this.#usage.result(),
    };
  }
}
