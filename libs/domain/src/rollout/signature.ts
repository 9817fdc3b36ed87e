const encoder = new TextEncoder();

/** 32-bit FNV-1a over the tool name, a zero byte and the head, as 8 hex digits. */
export function signatureOf(tool: string, head: string): string {
  let h = 0x811c9dc5;
  const step = (byte: number): void => {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  };
  for (const b of encoder.encode(tool)) step(b);
  step(0);
  for (const b of encoder.encode(head)) step(b);
  return h.toString(16).padStart(8, "0");
}
