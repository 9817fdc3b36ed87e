import { configureTextEncoding, getTextEncoding } from "@bufbuild/protobuf/wire";

let configured = false;

/**
 * Makes protobuf-es encode strings with `Buffer.from` instead of `TextEncoder.encode`. On Node a
 * short string costs a third as much that way: a small Buffer is a slice of a shared pool, while
 * `TextEncoder` allocates a fresh ArrayBuffer for every string of every message encoded. The bytes
 * are the same (lone surrogates become U+FFFD either way); decoding and validation are unchanged.
 * Process-wide and idempotent.
 */
export function useBufferTextEncoding(): void {
  if (configured) return;
  configured = true;
  const base = getTextEncoding();
  configureTextEncoding({
    // A string Buffer is backed by a plain ArrayBuffer (the pool or its own), never a shared one.
    encodeUtf8: (text: string) => Buffer.from(text, "utf8") as Uint8Array<ArrayBuffer>,
    decodeUtf8: base.decodeUtf8,
    checkUtf8: base.checkUtf8,
  });
}
