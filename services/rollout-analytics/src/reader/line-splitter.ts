const LF = 0x0a;

/** Leading bytes kept of a line over the limit: enough for the members that name its record. */
export const HEAD_BYTES = 16 * 1024;

/** Receives what a {@link LineSplitter} cuts. */
export interface LineSink {
  /** A whole line within the limit, without its line feed; valid only during the call. */
  line(bytes: Uint8Array): void;
  /** A line over the limit: its first {@link HEAD_BYTES} and its full length. */
  oversized(head: Uint8Array, bytes: number): void;
  /**
   * Optional: several whole lines within the limit at once, joined by their line feeds (the last
   * one's feed left off), so a sink that decodes text pays one call per chunk instead of one per
   * line. Without it, each line goes to {@link LineSink.line}.
   */
  lines?(run: Uint8Array): void;
}

/**
 * Cuts a byte stream into lines as chunks arrive, holding at most one line of `maxLineBytes`
 * (a longer line keeps only its head). Lines wholly inside a chunk are passed without copying.
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  // The unfinished line, as copies of the chunk tails it spans.
  #parts: Uint8Array[] = [];
  #held = 0;
  // Set while inside a line over the limit: its head so far and its length.
  #head: Uint8Array[] | null = null;
  #headBytes = 0;
  #overBytes = 0;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Feeds one chunk; the sink sees every line it completes. The chunk may be reused afterwards. */
  push(chunk: Uint8Array, sink: LineSink): void {
    let start = 0;
    let nl = chunk.indexOf(LF);
    if (nl !== -1 && (this.#head !== null || this.#held > 0)) {
      // The first feed ends the line held from earlier chunks.
      this.#take(chunk.subarray(0, nl), false);
      this.#finish(sink);
      start = nl + 1;
      nl = chunk.indexOf(LF, start);
    }
    // A chunk no longer than the limit holds no line over it: its whole lines go as one run.
    if (nl !== -1 && sink.lines !== undefined && chunk.length <= this.#maxLineBytes) {
      const last = chunk.lastIndexOf(LF);
      sink.lines(chunk.subarray(start, last));
      start = last + 1;
      nl = -1;
    }
    for (; nl !== -1; nl = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.#head === null && this.#held === 0 && piece.length <= this.#maxLineBytes) sink.line(piece);
      else {
        this.#take(piece, false);
        this.#finish(sink);
      }
    }
    if (start < chunk.length) this.#take(chunk.subarray(start), true);
  }

  /** Ends the stream: a final line without a line feed is passed on. */
  end(sink: LineSink): void {
    if (this.#head !== null || this.#held > 0) this.#finish(sink);
  }

  #take(piece: Uint8Array, keep: boolean): void {
    if (this.#head === null && this.#held + piece.length <= this.#maxLineBytes) {
      this.#parts.push(keep ? copyOf(piece) : piece);
      this.#held += piece.length;
      return;
    }
    if (this.#head === null) {
      // Crossing the limit: what is held becomes the head, and the rest is only counted.
      this.#head = [];
      this.#overBytes = 0;
      this.#headBytes = 0;
      for (const p of this.#parts) this.#addHead(p);
      this.#parts = [];
      this.#held = 0;
    }
    this.#addHead(piece);
  }

  #addHead(piece: Uint8Array): void {
    this.#overBytes += piece.length;
    const room = HEAD_BYTES - this.#headBytes;
    if (room <= 0 || this.#head === null) return;
    const part = copyOf(piece.subarray(0, room));
    this.#head.push(part);
    this.#headBytes += part.length;
  }

  #finish(sink: LineSink): void {
    if (this.#head !== null) {
      const head = Buffer.concat(this.#head, this.#headBytes);
      const bytes = this.#overBytes;
      this.#head = null;
      sink.oversized(head, bytes);
      return;
    }
    const line = this.#parts.length === 1 ? (this.#parts[0] ?? new Uint8Array()) : Buffer.concat(this.#parts, this.#held);
    this.#parts = [];
    this.#held = 0;
    sink.line(line);
  }
}

// A copy that outlives a reused chunk buffer (Buffer#slice would share its memory).
function copyOf(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}
