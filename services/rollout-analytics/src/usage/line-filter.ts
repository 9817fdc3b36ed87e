import { USAGE_HEAD_BYTES } from "@crs/domain/rollout";
import { HEAD_BYTES } from "../reader/index.js";

const LF = 0x0a;
// Held bytes are Buffers, like the read chunks: the judge and the sink then always see one kind of
// array, and the compiled judge is not thrown away when a line crosses a chunk.
const NOTHING = Buffer.alloc(0);

/** Receives the lines a {@link LineFilter} keeps. */
export interface KeptLineSink {
  /**
   * A kept line within the limit, `bytes[start..end)` without its line feed, given in place (no
   * view is made per line); valid only during the call.
   */
  line(bytes: Buffer, start: number, end: number): void;
  /** A kept line over the limit: its first `HEAD_BYTES`, as the scan's reader passes them. */
  oversized(head: Uint8Array): void;
}

/**
 * Judges a line by its first `USAGE_HEAD_BYTES` (a shorter line whole), given in place as
 * `bytes[start..end)`: true keeps it.
 */
export type KeepLine = (bytes: Uint8Array, start: number, end: number) => boolean;

/**
 * Cuts a byte stream into lines and passes on only those its judge keeps, judged from their
 * first bytes. A skipped line is passed over by searching for the next line feed, never copied
 * or decoded; only a line cut by a chunk's end has its head copied until it can be judged.
 */
export class LineFilter {
  readonly #maxLineBytes: number;
  readonly #keep: KeepLine;
  readonly #sink: KeptLineSink;
  // The line cut by the end of the previous chunk, if any: not judged yet, kept or skipped.
  #open: "none" | "unjudged" | "kept" | "skipped" = "none";
  // Copies of the open line's bytes: its head while unjudged, all of it once kept (up to the
  // limit; past it only the first HEAD_BYTES).
  #parts: Buffer[] = [];
  #held = 0;
  #length = 0;

  constructor(maxLineBytes: number, keep: KeepLine, sink: KeptLineSink) {
    this.#maxLineBytes = maxLineBytes;
    this.#keep = keep;
    this.#sink = sink;
  }

  /** Feeds one chunk; kept lines reach the sink before it returns. The chunk may be reused afterwards. */
  push(chunk: Buffer): void {
    let start = 0;
    if (this.#open !== "none") {
      const nl = chunk.indexOf(LF);
      this.#continue(nl === -1 ? chunk : chunk.subarray(0, nl), nl !== -1);
      if (nl === -1) return;
      start = nl + 1;
    }
    for (let nl = chunk.indexOf(LF, start); nl !== -1; nl = chunk.indexOf(LF, start)) {
      if (this.#keep(chunk, start, Math.min(nl, start + USAGE_HEAD_BYTES))) {
        if (nl - start <= this.#maxLineBytes) this.#sink.line(chunk, start, nl);
        else this.#sink.oversized(chunk.subarray(start, Math.min(nl, start + HEAD_BYTES)));
      }
      start = nl + 1;
    }
    if (start < chunk.length) this.#continue(chunk.subarray(start), false);
  }

  /** Ends the stream: a final line without a line feed is judged and passed on like any other. */
  end(): void {
    if (this.#open !== "none") this.#continue(NOTHING, true);
  }

  // Takes the next piece of the open line; `ends` when the piece reaches its line feed.
  #continue(piece: Uint8Array, ends: boolean): void {
    let rest = piece;
    if (this.#open === "none" || this.#open === "unjudged") {
      const head = rest.subarray(0, Math.max(0, USAGE_HEAD_BYTES - this.#length));
      this.#add(head);
      rest = rest.subarray(head.length);
      if (this.#length < USAGE_HEAD_BYTES && !ends) {
        this.#open = "unjudged";
        return;
      }
      const held = this.#joined();
      this.#open = this.#keep(held, 0, Math.min(held.length, USAGE_HEAD_BYTES)) ? "kept" : "skipped";
    }
    if (this.#open === "kept") this.#add(rest);
    if (!ends) return;
    if (this.#open === "kept") {
      const bytes = this.#joined();
      if (this.#length <= this.#maxLineBytes) this.#sink.line(bytes, 0, bytes.length);
      else this.#sink.oversized(bytes.subarray(0, HEAD_BYTES));
    }
    this.#open = "none";
    this.#parts = [];
    this.#held = 0;
    this.#length = 0;
  }

  // Keeps a copy of the open line's next bytes; past the limit only the head is kept.
  #add(piece: Uint8Array): void {
    const wasOver = this.#length > this.#maxLineBytes;
    this.#length += piece.length;
    if (this.#length <= this.#maxLineBytes) {
      if (piece.length > 0) this.#parts.push(Buffer.from(piece));
      this.#held += piece.length;
      return;
    }
    if (!wasOver && this.#held > HEAD_BYTES) {
      // Crossing the limit: what is held shrinks to the head.
      this.#parts = [this.#joined().slice(0, HEAD_BYTES)];
      this.#held = HEAD_BYTES;
    }
    const room = HEAD_BYTES - this.#held;
    if (room <= 0) return;
    const part = Buffer.from(piece.subarray(0, room));
    this.#parts.push(part);
    this.#held += part.length;
  }

  #joined(): Buffer {
    if (this.#parts.length === 1) return this.#parts[0] ?? NOTHING;
    const out = Buffer.concat(this.#parts, this.#held);
    this.#parts = [out];
    return out;
  }
}
