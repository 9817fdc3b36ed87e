// Per-rollout summaries of the error-class census and the post-tool spans.
import type { ContextBand, OrdinalBucket, UnbandedSpan } from "../analytics/post-tool.js";
import { cellKey } from "./post-tool-cells.js";
import type { RolloutCensus } from "../decode/collect.js";
import { isAnalyticsRecord } from "../decode/analytics-record.js";
import type { RolloutRecord } from "../decode/record.js";
import { classifyAbort } from "../error-class.js";
import { sortedRecord, sortedSample } from "./order.js";
import type { ErrorsPartial, PostToolPartial } from "./types.js";

// The reference's known set, plus the upstream aliases this reader folds as task kinds.
const KNOWN_PAYLOAD_TYPES = new Set(["task_started", "task_complete", "turn_aborted", "token_count", "turn_started", "turn_complete"]);

/** Payload types of a rollout that the fold does not know, with their counts, sorted by type. */
export function unknownPayloadTypes(rollout: Pick<RolloutCensus, "payloadTypes">): Record<string, number> {
  return sortedRecord(Object.entries(rollout.payloadTypes).filter(([t]) => !KNOWN_PAYLOAD_TYPES.has(t)));
}

/** What the error-class census reads of a rollout's records. */
export interface ErrorFacts {
  /** Classes of every abort but a final one. */
  readonly aborts: Readonly<Record<string, number>>;
  /** Reason of an abort that is the rollout's last record, classified once the tear is known. */
  readonly lastAbort: string | null;
  readonly taskComplete: number;
  readonly terminalsWithClass: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly turnErrors: Readonly<Record<string, number>>;
}

function bump(m: Map<string, number>, key: string): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}

/** The error-class facts as records stream in; only a last abort waits, for the tear. */
export class ErrorTally {
  readonly #aborts = new Map<string, number>();
  readonly #statuses = new Map<string, number>();
  readonly #turnErrors = new Map<string, number>();
  #lastAbort: string | null = null;
  #taskComplete = 0;
  #terminalsWithClass = 0;

  /** Takes the next record. */
  push(r: RolloutRecord): void {
    // Only an abort that is the final analytics record of a torn file can be blamed on the tear;
    // a message or turn context written after it does not show the process lived on.
    if (isAnalyticsRecord(r)) {
      if (this.#lastAbort !== null) bump(this.#aborts, classifyAbort(this.#lastAbort, false));
      this.#lastAbort = r.kind === "turn_aborted" ? r.reason : null;
    }
    if (r.kind === "task_complete") {
      this.#taskComplete += 1;
      if (r.statusClasses.length > 0) this.#terminalsWithClass += 1;
      for (const c of r.statusClasses) bump(this.#statuses, c);
    }
    if (r.kind === "turn_error") bump(this.#turnErrors, r.errorClass);
  }

  /** The facts so far. */
  facts(): ErrorFacts {
    return {
      aborts: sortedRecord(this.#aborts),
      lastAbort: this.#lastAbort,
      taskComplete: this.#taskComplete,
      terminalsWithClass: this.#terminalsWithClass,
      statuses: sortedRecord(this.#statuses),
      turnErrors: sortedRecord(this.#turnErrors),
    };
  }
}

/** The error-class census of one rollout, from its census and its records' facts. */
export function errorsOf(census: RolloutCensus, facts: ErrorFacts): ErrorsPartial {
  const aborts = new Map(Object.entries(facts.aborts));
  if (facts.lastAbort !== null) bump(aborts, classifyAbort(facts.lastAbort, census.tornTail));
  const turnAborted = [...aborts.values()].reduce((a, b) => a + b, 0);
  const types = Object.entries(census.payloadTypes);
  const unknown = unknownPayloadTypes(census);
  return {
    sessions: 1,
    tornTails: census.tornTail ? 1 : 0,
    rolloutsWithUnknown: Object.keys(unknown).length > 0 ? 1 : 0,
    turnAborted,
    taskComplete: facts.taskComplete,
    terminalsWithClass: facts.terminalsWithClass,
    payloadTypes: sortedRecord(types),
    unknownPayloadTypes: unknown,
    abortClasses: sortedRecord(aborts),
    statusClasses: { ...facts.statuses },
    turnErrorClasses: { ...facts.turnErrors },
    oversizedLines: census.oversized,
  };
}

/** Post-tool spans summed as they are found: counts, and gap and tool-time samples by band and bucket. */
export class PostToolTally {
  #spans = 0;
  #tailSkipped = 0;
  #compactionInGap = 0;
  readonly #attribution = new Map<string, number>();
  readonly #gapByCell = new Map<string, number[]>();
  readonly #toolByCell = new Map<string, number[]>();
  // Spans whose band is not known yet: their bucket and two numbers, not the span.
  #pendingBuckets: OrdinalBucket[] = [];
  #pendingGaps: number[] = [];
  #pendingTools: number[] = [];

  /** Takes one span; its band comes with {@link PostToolTally.banded}. */
  closed(s: UnbandedSpan): void {
    this.#spans += 1;
    if (s.compactions > 0) this.#compactionInGap += 1;
    bump(this.#attribution, s.attribution);
    this.#pendingBuckets.push(s.bucket);
    this.#pendingGaps.push(s.gapMs);
    this.#pendingTools.push(s.toolMs);
  }

  /** Every span taken since the last call has `band`. */
  banded(band: ContextBand): void {
    this.#pendingBuckets.forEach((bucket, i) => {
      const cell = cellKey(band, bucket);
      sample(this.#gapByCell, cell, this.#pendingGaps[i] as number);
      sample(this.#toolByCell, cell, this.#pendingTools[i] as number);
    });
    this.#pendingBuckets = [];
    this.#pendingGaps = [];
    this.#pendingTools = [];
  }

  /** Takes the results at the rollout's end that no model record followed. */
  tail(skipped: number): void {
    this.#tailSkipped += skipped;
  }

  /** The summary so far (one rollout: it counts as a session when it had a span or a skipped result). */
  result(): PostToolPartial {
    return {
      sessions: this.#spans + this.#tailSkipped > 0 ? 1 : 0,
      spans: this.#spans,
      tailSkipped: this.#tailSkipped,
      compactionInGap: this.#compactionInGap,
      attribution: sortedRecord(this.#attribution),
      gapByCell: samplesOf(this.#gapByCell),
      toolByCell: samplesOf(this.#toolByCell),
    };
  }
}

function sample(m: Map<string, number[]>, key: string, v: number): void {
  const list = m.get(key);
  if (list === undefined) m.set(key, [v]);
  else list.push(v);
}

function samplesOf(m: Map<string, number[]>): Record<string, number[]> {
  return sortedRecord([...m.entries()].map(([k, vs]) => [k, sortedSample(vs)]));
}
