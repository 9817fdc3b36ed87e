import { decodeLine, decodeOversizedLine } from "./decode-line.js";
import type { DecodedLine, RolloutMeta, RolloutRecord, SkipReason } from "./record.js";

/** What a rollout's lines were, besides its analysed records: identity, counts and skips. */
export interface RolloutCensus {
  /** First session_meta of the file (later ones are inherited parent copies); null when none. */
  readonly meta: RolloutMeta | null;
  /** Non-blank lines read. */
  readonly lines: number;
  /** Skipped lines by reason (blank lines included). */
  readonly skipped: Readonly<Partial<Record<SkipReason, number>>>;
  /** Lines longer than the reader holds, decoded from their leading text (also in `lines`). */
  readonly oversized: number;
  /** True when the last non-blank line was not valid JSON (a torn write). */
  readonly tornTail: boolean;
  /** Count of each event_msg payload type seen. */
  readonly payloadTypes: Readonly<Record<string, number>>;
}

/** A whole rollout decoded: its census and its records in file order. */
export interface DecodedRollout extends RolloutCensus {
  /** Every decoded record except session_meta and census-only events, in file order. */
  readonly records: readonly RolloutRecord[];
}

/** Where a collector hands each analysed record, and the first session_meta, in file order. */
export type RecordSink = (record: RolloutRecord) => void;

/**
 * Incremental decoder for one rollout: push lines as they stream in, then take the result. With a
 * sink, each analysed record is handed on and not kept, so only the census grows.
 */
export class RolloutCollector {
  private readonly sink: RecordSink | undefined;
  private meta: RolloutMeta | null = null;
  private records: RolloutRecord[] = [];
  // Set once result() has handed the records out; a later push copies them first.
  private shared = false;
  private lines = 0;
  private oversized = 0;
  private readonly skipped: Partial<Record<SkipReason, number>> = {};
  private tornTail = false;
  // A Map, since payload types are the producer's strings and may name object members.
  private readonly payloadTypes = new Map<string, number>();

  /** Keeps the records, or hands them to `sink` when one is given. */
  constructor(sink?: RecordSink) {
    this.sink = sink;
  }

  /** Decodes and keeps one line. */
  push(line: string): void {
    this.take(decodeLine(line));
  }

  /** Takes a line too long to hold, by its leading text; its body is never read. */
  pushOversized(prefix: string): void {
    this.oversized += 1;
    const decoded = decodeOversizedLine(prefix);
    this.take(decoded);
    // Its end was never parsed, so it proves no tear.
    this.tornTail = false;
  }

  private take(decoded: DecodedLine): void {
    if (!decoded.ok) {
      this.skipped[decoded.skip] = (this.skipped[decoded.skip] ?? 0) + 1;
      if (decoded.skip !== "blank") {
        this.lines += 1;
        this.tornTail = decoded.skip === "not_json";
      }
      return;
    }
    this.lines += 1;
    this.tornTail = false;
    const record = decoded.record;
    if (record.kind === "session_meta") {
      // The first names the rollout; a sink gets it in its place, as the usage fold needs to know
      // a child rollout before its replies. Kept records leave it out (it is `meta`).
      if (this.meta === null && this.sink !== undefined) this.sink(record);
      this.meta ??= record.meta;
      return;
    }
    const payloadType = record.kind === "event" ? record.payloadType : eventPayloadType(record);
    if (payloadType !== "") this.payloadTypes.set(payloadType, (this.payloadTypes.get(payloadType) ?? 0) + 1);
    // Other events only feed the census; keeping them would cost memory and no analysis.
    if (record.kind === "event") return;
    if (this.sink !== undefined) {
      this.sink(record);
      return;
    }
    if (this.shared) {
      this.records = [...this.records];
      this.shared = false;
    }
    this.records.push(record);
  }

  /** The census so far. */
  census(): RolloutCensus {
    return {
      meta: this.meta,
      lines: this.lines,
      oversized: this.oversized,
      skipped: { ...this.skipped },
      tornTail: this.tornTail,
      payloadTypes: Object.fromEntries(this.payloadTypes),
    };
  }

  /** The rollout decoded so far (its records are shared, not copied, until the next push; none went to a sink). */
  result(): DecodedRollout {
    this.shared = true;
    return { ...this.census(), records: this.records };
  }
}

function eventPayloadType(record: RolloutRecord): string {
  switch (record.kind) {
    // The census counts types as written: an alias is read as its task kind but counted as itself.
    case "task_started":
      return record.alias ? "turn_started" : record.kind;
    case "task_complete":
      return record.alias ? "turn_complete" : record.kind;
    case "turn_aborted":
    case "token_count":
    case "agent_message":
    case "thread_rolled_back":
      return record.kind;
    case "user_message":
      return record.source === "event" ? "user_message" : "";
    case "turn_error":
      return "error";
    default:
      return "";
  }
}

/** Decodes every line of one rollout. */
export function collectRollout(lines: Iterable<string>): DecodedRollout {
  const collector = new RolloutCollector();
  for (const line of lines) collector.push(line);
  return collector.result();
}
