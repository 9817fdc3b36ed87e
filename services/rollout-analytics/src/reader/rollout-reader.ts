import { RolloutCollector, type DecodedRollout, type RecordSink } from "@crs/domain/rollout";
import { LineSplitter, type LineSink } from "./line-splitter.js";

/** Reader limits. */
export interface ReaderLimits {
  /** Longest line decoded in full, in bytes before its line feed; longer ones are read by their head. */
  readonly maxLineBytes: number;
}

/** Longest line the scanner decodes in full by default, as the reference's 64 MiB buffer. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

const utf8 = new TextDecoder("utf-8");

/**
 * The one streaming rollout reader: bytes in, body-free records out. It holds at most one line
 * (a line over the limit only by its head) besides the decoded records, whatever the input size;
 * given a sink, it hands each record on as it decodes and keeps none.
 */
export class RolloutReader {
  readonly #collector: RolloutCollector;
  readonly #lines: LineSplitter;
  readonly #sink: LineSink;
  #bytes = 0;

  /** A reader that keeps the records, or hands them to `sink` (typically a `RolloutFold`). */
  constructor(limits: ReaderLimits = { maxLineBytes: DEFAULT_MAX_LINE_BYTES }, sink?: RecordSink) {
    this.#collector = new RolloutCollector(sink);
    this.#lines = new LineSplitter(limits.maxLineBytes);
    const collector = this.#collector;
    this.#sink = {
      // Bytes become text only here, for a line within the limit.
      line: (bytes) => collector.push(utf8.decode(bytes)),
      oversized: (head) => collector.pushOversized(utf8.decode(head)),
    };
  }

  /** Bytes read so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Takes the next chunk; it may be reused by the caller afterwards. */
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    this.#lines.push(chunk, this.#sink);
  }

  /** Ends the input and returns the decoded rollout (with no records when a sink took them). */
  end(): DecodedRollout {
    this.#lines.end(this.#sink);
    return this.#collector.result();
  }
}
