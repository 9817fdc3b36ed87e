const encoder = new TextEncoder();

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

// Folds the UTF-8 bytes of `text` into the hash. ASCII text (nearly every tool name and command)
// is its own UTF-8, so it is hashed by character codes as it is read; only text with another
// character is encoded, and hashed again from the start.
function fold(h: number, text: string): number {
  let acc = h;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      acc = h;
      for (const b of encoder.encode(text)) acc = Math.imul(acc ^ b, FNV_PRIME) >>> 0;
      return acc;
    }
    acc = Math.imul(acc ^ c, FNV_PRIME) >>> 0;
  }
  return acc;
}

/** 32-bit FNV-1a over the tool name, a zero byte and the head, as 8 hex digits. */
export function signatureOf(tool: string, head: string): string {
  const h = fold(Math.imul(fold(FNV_OFFSET, tool) ^ 0, FNV_PRIME) >>> 0, head);
  return h.toString(16).padStart(8, "0");
}
