import { lineTooLong } from "../errors.js";

const LF = 0x0a;

/**
 * Splits a UTF-8 byte stream into lines as chunks arrive. Chunks may cut lines and multi-byte
 * characters anywhere; only the unfinished line is held, and no line may pass `maxLineBytes`.
 */
export class LineSplitter {
  // One streaming decoder for the whole upload carries a character cut by a chunk boundary
  // over to the next chunk; a line feed byte never occurs inside a multi-byte character.
  readonly #decoder = new TextDecoder("utf-8");
  readonly #maxLineBytes: number;
  #partial = "";
  #partialBytes = 0;
  #completed = 0;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Feeds one chunk; `emit` receives each line it completes, without its line ending. */
  push(chunk: Uint8Array, emit: (line: string) => void): void {
    // Lengths are checked on bytes before decoding, so an oversized line is refused before it is held.
    let start = 0;
    for (let nl = chunk.indexOf(LF); nl !== -1; nl = chunk.indexOf(LF, start)) {
      this.#check(this.#partialBytes + nl - start);
      this.#partialBytes = 0;
      this.#completed += 1;
      start = nl + 1;
    }
    this.#partialBytes += chunk.length - start;
    this.#check(this.#partialBytes);
    const parts = this.#decoder.decode(chunk, { stream: true }).split("\n");
    const last = parts.length - 1;
    if (last === 0) {
      this.#partial += parts[0] ?? "";
      return;
    }
    emit(withoutCr(this.#partial + (parts[0] ?? "")));
    for (let i = 1; i < last; i++) emit(withoutCr(parts[i] ?? ""));
    this.#partial = parts[last] ?? "";
  }

  /** Ends the stream: `emit` receives the final line when it had no line feed. */
  end(emit: (line: string) => void): void {
    const rest = this.#partial + this.#decoder.decode();
    this.#partial = "";
    this.#partialBytes = 0;
    if (rest !== "") emit(withoutCr(rest));
  }

  #check(bytes: number): void {
    if (bytes > this.#maxLineBytes) throw lineTooLong(this.#completed + 1, this.#maxLineBytes);
  }
}

// CRLF files end each line with a carriage return the line feed split leaves behind.
function withoutCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
