import { RolloutCollector, type DecodedRollout, type RecordSink } from "@crs/domain/rollout";
import { LineSplitter, type LineSink } from "./line-splitter.js";

/** Reader limits. */
export interface ReaderLimits {
  /** Longest line decoded in full, in bytes before its line feed; longer ones are read by their head. */
  readonly maxLineBytes: number;
}

/** Longest line the scanner decodes in full by default, as the reference's 64 MiB buffer. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

// Bytes turned into text at a time, whatever the size of the chunks read. Text of up to this
// size is allocated in the young generation's pages, which are reused; a larger string is a large
// object with fresh pages of its own, and decoding a 1 MiB chunk at once cost a scan about a
// tenth more time (in page faults and cache misses) than decoding it in these slices.
const DECODE_SLICE_BYTES = 64 * 1024;
const LF = 0x0a;

const utf8 = new TextDecoder("utf-8");

// Where the slice of `chunk` from `at` ends: just past its last line feed within the slice size,
// so no line straddles two slices of a chunk and only the chunk's own tail is carried over as a
// copy; past the next feed when the slice holds none; the chunk's end when no feed follows.
function sliceEnd(chunk: Uint8Array, at: number): number {
  const limit = at + DECODE_SLICE_BYTES;
  if (limit >= chunk.length) return chunk.length;
  const last = chunk.lastIndexOf(LF, limit - 1);
  if (last >= at) return last + 1;
  const next = chunk.indexOf(LF, limit);
  return next === -1 ? chunk.length : next + 1;
}

// Hands each line of `text` (lines joined by line feeds) to the collector, as slices of it.
function pushLines(collector: RolloutCollector, text: string): void {
  let start = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
    collector.push(text.slice(start, nl));
    start = nl + 1;
  }
  collector.push(text.slice(start));
}

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
      // One decode per chunk: a line feed is never inside a multi-byte character, so cutting the
      // text at its feeds gives each line's text. The decoder drops a byte order mark only at the
      // start of the run where a per-line decode dropped one on each line, but a line's text is
      // trimmed before parsing, which drops it there too.
      lines: (run) => pushLines(collector, utf8.decode(run)),
    };
  }

  /** Bytes read so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Takes the next chunk; it may be reused by the caller afterwards. */
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    for (let at = 0; at < chunk.length; ) {
      const end = sliceEnd(chunk, at);
      this.#lines.push(chunk.subarray(at, end), this.#sink);
      at = end;
    }
  }

  /** Ends the input and returns the decoded rollout (with no records when a sink took them). */
  end(): DecodedRollout {
    this.#lines.end(this.#sink);
    return this.#collector.result();
  }
}
