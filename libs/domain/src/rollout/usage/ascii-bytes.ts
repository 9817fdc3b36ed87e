// ASCII literals read in place, for the readers that judge and read a line from its bytes.

/** `"`, which ends a JSON string. */
export const QUOTE = 0x22;
/** The backslash, which opens an escape in a JSON string. */
export const BACKSLASH = 0x5c;

/** The bytes of ASCII text, one per character. */
export function asciiBytes(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/**
 * The position just past `literal` when `b[at..end)` starts with it, else -1; an `at` of -1
 * gives -1, so reads chain.
 */
export function literalAt(b: Uint8Array, at: number, end: number, literal: Uint8Array): number {
  const n = literal.length;
  if (at < 0 || at + n > end) return -1;
  for (let i = 0; i < n; i += 1) if (b[at + i] !== literal[i]) return -1;
  return at + n;
}
