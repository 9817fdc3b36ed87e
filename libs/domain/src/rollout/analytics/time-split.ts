import { sortedRecord } from "../corpus/order.js";
import type { TaskSplit } from "../critical-path.js";
import { endsTimelineGap, isAnalyticsRecord } from "../decode/analytics-record.js";
import type { RolloutRecord } from "../decode/record.js";
import { STALL_THRESHOLD_MS } from "../vocabulary.js";
import type { LiveCall } from "./calls.js";

/** What the split knows of its task's end when a record arrives. */
export interface EndView {
  readonly endMs: number | null;
  /** The end can no longer move. */
  readonly settled: boolean;
}

// Booked time whose bucket is not known yet, summed the way each bucket needs it.
interface Booked {
  ms: number;
  model: number;
  idle: number;
  gaps: number;
  maxGap: number;
}

/**
 * Time booked while calls were open. Its bucket is the first of those calls that turns out to be
 * answered (tool time), else wait time if one that only waited was, else the model's; so it stays
 * here until the calls that decide it are answered or dead. The calls it still depends on are
 * always the first `open` calls of its task's open list (every later call was written after the
 * time, or comes after the call that already owns it), so a count names them.
 */
interface Pending {
  /** How many of the task's open calls, from the oldest, can still decide the bucket. */
  open: number;
  /** Tool of the earliest answered non-waiting call found so far. */
  owner: string | null;
  waitSeen: boolean;
  readonly booked: Booked;
}

const MODEL_EMITTED = new Set(["tool_call", "agent_message", "model_output"]);

function isModelEmitted(r: RolloutRecord): boolean {
  return MODEL_EMITTED.has(r.kind) || (r.kind === "token_count" && r.inputTokens > 0);
}

function freeTime(span: number): Booked {
  const stalled = span > STALL_THRESHOLD_MS;
  return {
    ms: span,
    model: stalled ? STALL_THRESHOLD_MS : span,
    idle: stalled ? span - STALL_THRESHOLD_MS : 0,
    gaps: stalled ? 1 : 0,
    maxGap: stalled ? span : 0,
  };
}

function addBooked(into: Booked, b: Booked): void {
  into.ms += b.ms;
  into.model += b.model;
  into.idle += b.idle;
  into.gaps += b.gaps;
  into.maxGap = Math.max(into.maxGap, b.maxGap);
}

function keyOf(open: number, owner: string | null, waitSeen: boolean): string {
  return `${open}|${waitSeen ? 1 : 0}|${owner ?? ""}|${owner === null ? 0 : 1}`;
}

// Where a logged time would stand now: its still-open calls lead the open list, and the earliest
// answered non-waiting one owns it.
function pendingOf(calls: readonly LiveCall[], booked: Booked): Pending {
  let open = 0;
  let owner: string | null = null;
  let waitSeen = false;
  for (const c of calls) {
    if (c.state === "open") open += 1;
    else if (c.state === "answered" && !c.waits) {
      owner = c.tool;
      break;
    } else if (c.state === "answered") waitSeen = true;
  }
  return { open, owner, waitSeen, booked };
}

/**
 * One task's window split into tool / wait / model / idle time as its records stream in. With
 * calls in flight an interval belongs to the earliest one that gets answered, so overlapping calls
 * share time instead of each booking its full span; a call never answered books nothing.
 */
export class TaskWindow {
  #start: number | null;
  /** The task's start is a timed request, so a first-token time can be measured from it. */
  readonly #timedStart: boolean;
  #cursor: number | null;
  #lastSeen: number | null = null;
  #tool = 0;
  #wait = 0;
  #model = 0;
  #idle = 0;
  #idleGaps = 0;
  #maxGap = 0;
  readonly #byTool = new Map<string, number>();
  #compactions = 0;
  #firstModel: number | null = null;
  /** Joinable calls of this task not answered yet, oldest first. */
  #open: LiveCall[] = [];
  // Ordered by `open`; at most one per key.
  #pending: Pending[] = [];
  readonly #pendingByKey = new Map<string, Pending>();
  // Times past an end that may still move later; replayed once it settles.
  #beyond: { until: number; calls: readonly LiveCall[] }[] = [];

  /**
   * A window opening at its task's start (null when the start was untimed); `asked` says the start
   * is a request (a written start or user input), from which a first token can be timed.
   */
  constructor(startMs: number | null, asked: boolean) {
    this.#start = startMs;
    this.#timedStart = asked && startMs !== null;
    this.#cursor = startMs;
  }

  /** Books the time up to a record of this task; `end` is its task's end as known now. */
  record(r: RolloutRecord, end: EndView): void {
    if (r.kind === "compacted") this.#compactions += 1;
    const ts = r.tsMs;
    if (ts === null) return;
    // Every record the task wrote bounds an open window (a live or implicit task ends there).
    this.#lastSeen = Math.max(this.#lastSeen ?? ts, ts);
    if (this.#start === null && isAnalyticsRecord(r)) this.#start = this.#cursor = ts;
    // Messages, reasoning, turn context and user input end no gap: a message written during a
    // five-minute silence is not the model working.
    if (endsTimelineGap(r)) this.#bookUntil(ts, end);
    // A window anchored at its first record (the start was untimed) knows no start to measure from:
    // that record would give the model a first token at 0 ms.
    if (this.#firstModel === null && this.#timedStart && this.#start !== null && isModelEmitted(r) && ts >= this.#start) {
      this.#firstModel = ts - this.#start;
    }
  }

  /** A call of this task that an output may still answer. */
  opened(call: LiveCall): void {
    this.#open.push(call);
  }

  /** One of this task's calls got its output: the time booked while it was out may now be placed. */
  answered(call: LiveCall): void {
    // The answered call is almost always among the newest.
    const at = this.#open.lastIndexOf(call);
    if (at < 0) return;
    this.#open.splice(at, 1);
    // Only time that depended on the call moves: it now has an owner or one open call fewer.
    let from = this.#pending.length;
    while (from > 0 && (this.#pending[from - 1]?.open ?? 0) > at) from -= 1;
    const moved = this.#pending.splice(from);
    for (const p of moved) {
      this.#pendingByKey.delete(keyOf(p.open, p.owner, p.waitSeen));
      if (call.waits) this.#keep({ ...p, open: p.open - 1, waitSeen: true });
      else this.#keep({ ...p, open: at, owner: call.tool });
    }
  }

  #bookUntil(until: number, end: EndView): void {
    if (end.endMs === null) this.#book(until, null);
    else if (end.settled) {
      this.#replay(end.endMs);
      this.#book(Math.min(until, end.endMs), null);
    } else if (this.#beyond.length > 0 || until > end.endMs) this.#beyond.push({ until, calls: [...this.#open] });
    else this.#book(until, null);
  }

  #replay(endMs: number): void {
    const held = this.#beyond;
    this.#beyond = [];
    for (const b of held) this.#book(Math.min(b.until, endMs), b.calls);
  }

  // Books up to `to` under the calls open now, or under those of a logged time.
  #book(to: number, logged: readonly LiveCall[] | null): void {
    if (this.#cursor === null) return;
    const span = to - this.#cursor;
    if (span <= 0) return;
    this.#cursor = to;
    const booked = freeTime(span);
    this.#keep(logged === null ? { open: this.#open.length, owner: null, waitSeen: false, booked } : pendingOf(logged, booked));
  }

  // Places decided time, or keeps it with any pending time that depends on the same calls the same way.
  #keep(p: Pending): void {
    if (p.open === 0) {
      this.#place(p.owner, p.waitSeen, p.booked);
      return;
    }
    const key = keyOf(p.open, p.owner, p.waitSeen);
    const same = this.#pendingByKey.get(key);
    if (same !== undefined) {
      addBooked(same.booked, p.booked);
      return;
    }
    this.#pendingByKey.set(key, p);
    // Kept in order of `open`; new time depends on every open call, so it almost always goes last.
    let at = this.#pending.length;
    while (at > 0 && (this.#pending[at - 1]?.open ?? 0) > p.open) at -= 1;
    this.#pending.splice(at, 0, p);
  }

  #place(owner: string | null, waitSeen: boolean, b: Booked): void {
    if (owner !== null) {
      this.#tool += b.ms;
      this.#byTool.set(owner, (this.#byTool.get(owner) ?? 0) + b.ms);
    } else if (waitSeen) {
      this.#wait += b.ms;
    } else {
      this.#model += b.model;
      this.#idle += b.idle;
      this.#idleGaps += b.gaps;
      this.#maxGap = Math.max(this.#maxGap, b.maxGap);
    }
  }

  /** Closes the window at its task's final end (the last time it wrote when none); dead calls are marked first. */
  finish(endMs: number | null): TaskSplit {
    if (endMs !== null) this.#replay(endMs);
    // Calls still open are dead: what waited on them falls to its owner, a wait, or the model.
    for (const p of this.#pending) this.#place(p.owner, p.waitSeen, p.booked);
    this.#pending = [];
    this.#pendingByKey.clear();
    this.#open = [];
    let end = endMs ?? this.#lastSeen;
    if (end !== null) {
      // Time booked before a terminal arrived timed earlier stays booked: the window reaches it.
      if (this.#cursor !== null && this.#cursor > end) end = this.#cursor;
      this.#book(end, []);
    }
    const start = this.#start;
    return {
      startMs: start,
      endMs: end,
      wallMs: start !== null && end !== null && end > start ? end - start : 0,
      toolMs: this.#tool,
      waitMs: this.#wait,
      modelMs: this.#model,
      idleMs: this.#idle,
      idleGaps: this.#idleGaps,
      maxGapMs: this.#maxGap,
      byTool: sortedRecord(this.#byTool),
      compactions: this.#compactions,
      firstModelMs: this.#firstModel,
    };
  }
}
