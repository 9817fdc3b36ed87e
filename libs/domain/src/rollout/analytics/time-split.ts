import type { TaskSplit } from "../critical-path.js";
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
 * Time booked while calls were open. Its bucket is the first open call that turns out to be
 * answered (tool time), else wait time if an answered call only waited, else the model's; so it
 * stays here until the calls that decide it are answered or dead.
 */
interface Pending {
  /** Calls that can still decide the bucket, oldest first. */
  open: readonly LiveCall[];
  /** Tool of the earliest answered non-waiting call found so far. */
  owner: string | null;
  waitSeen: boolean;
  booked: Booked;
  /** The open-call list it was booked under, while it may take more time. */
  version: readonly LiveCall[] | null;
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

// Narrows a pending booking by what its calls became; true when its bucket is decided.
function narrow(p: Pending): boolean {
  let ownerAt = p.open.length;
  for (let i = 0; i < p.open.length; i += 1) {
    const c = p.open[i];
    if (c?.state !== "answered") continue;
    if (!c.waits) {
      p.owner = c.tool;
      ownerAt = i;
      break;
    }
    p.waitSeen = true;
  }
  // Once the bucket is at least wait time, a waiting call can no longer change it.
  const decidesWait = p.owner === null && !p.waitSeen;
  p.open = p.open.slice(0, ownerAt).filter((c) => c.state === "open" && (!c.waits || decidesWait));
  p.version = null;
  return p.open.length === 0;
}

function keyOf(p: Pending): string {
  return `${p.open.map((c) => c.serial).join(",")}|${p.owner === null ? "\u0000" : p.owner}|${p.waitSeen ? 1 : 0}`;
}

/**
 * One task's window split into tool / wait / model / idle time as its records stream in. With
 * calls in flight an interval belongs to the earliest one that gets answered, so overlapping calls
 * share time instead of each booking its full span; a call never answered books nothing.
 */
export class TaskWindow {
  #start: number | null;
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
  #version: readonly LiveCall[] | null = null;
  #pending: Pending[] = [];
  // Times past an end that may still move later; replayed once it settles.
  #beyond: { until: number; calls: readonly LiveCall[] }[] = [];

  /** A window opening at its task's start (null when the start was untimed). */
  constructor(startMs: number | null) {
    this.#start = startMs;
    this.#cursor = startMs;
  }

  /** Books the time up to a record of this task; `end` is its task's end as known now. */
  record(r: RolloutRecord, end: EndView): void {
    if (r.kind === "compacted") this.#compactions += 1;
    const ts = r.tsMs;
    if (ts === null) return;
    if (this.#start === null) this.#start = this.#cursor = ts;
    this.#lastSeen = Math.max(this.#lastSeen ?? ts, ts);
    this.#bookUntil(ts, end);
    if (this.#firstModel === null && isModelEmitted(r) && ts >= this.#start) this.#firstModel = ts - this.#start;
  }

  /** A call of this task that an output may still answer. */
  opened(call: LiveCall): void {
    this.#open.push(call);
    this.#version = null;
  }

  /** One of this task's calls got its output: the time booked while it was out may now be placed. */
  answered(call: LiveCall): void {
    this.#open = this.#open.filter((c) => c !== call);
    this.#version = null;
    this.#narrowPending();
  }

  #snapshot(): readonly LiveCall[] {
    this.#version ??= [...this.#open];
    return this.#version;
  }

  #bookUntil(until: number, end: EndView): void {
    const calls = this.#snapshot();
    if (end.endMs === null) this.#book(until, calls);
    else if (end.settled) {
      this.#replay(end.endMs);
      this.#book(Math.min(until, end.endMs), calls);
    } else if (this.#beyond.length > 0 || until > end.endMs) this.#beyond.push({ until, calls });
    else this.#book(until, calls);
  }

  #replay(endMs: number): void {
    const held = this.#beyond;
    this.#beyond = [];
    for (const b of held) this.#book(Math.min(b.until, endMs), b.calls);
  }

  #book(to: number, calls: readonly LiveCall[]): void {
    if (this.#cursor === null) return;
    const span = to - this.#cursor;
    if (span <= 0) return;
    this.#cursor = to;
    if (calls.length === 0) {
      this.#place(null, false, freeTime(span));
      return;
    }
    const last = this.#pending[this.#pending.length - 1];
    if (last !== undefined && last.version === calls) addBooked(last.booked, freeTime(span));
    else this.#pending.push({ open: calls, owner: null, waitSeen: false, booked: freeTime(span), version: calls });
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

  // Places what is decided and merges bookings that now depend on the same calls the same way.
  #narrowPending(): void {
    if (this.#pending.length === 0) return;
    const byKey = new Map<string, Pending>();
    for (const p of this.#pending) {
      if (narrow(p)) {
        this.#place(p.owner, p.waitSeen, p.booked);
        continue;
      }
      const key = keyOf(p);
      const same = byKey.get(key);
      if (same === undefined) byKey.set(key, p);
      else addBooked(same.booked, p.booked);
    }
    this.#pending = [...byKey.values()];
  }

  /** Closes the window at its task's final end (the last time it wrote when none); dead calls are marked first. */
  finish(endMs: number | null): TaskSplit {
    this.#open = [];
    this.#version = null;
    if (endMs !== null) this.#replay(endMs);
    this.#narrowPending();
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
      byTool: Object.fromEntries([...this.#byTool.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      compactions: this.#compactions,
      firstModelMs: this.#firstModel,
    };
  }
}
