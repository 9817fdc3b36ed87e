/** Deterministic 32-bit hashing of strings (MurmurHash3 x86_32 over UTF-8 bytes). */

const encoder = new TextEncoder();

/** MurmurHash3 (x86, 32-bit) of the UTF-8 bytes of `s` with `seed`; unsigned result. */
export function murmur3(s: string, seed: number): number {
  const bytes = encoder.encode(s);
  let h = seed >>> 0;
  const n = bytes.length;
  const blocks = n & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = (bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  const tail = n & 3;
  if (tail === 3) k ^= (bytes[blocks + 2] as number) << 16;
  if (tail >= 2) k ^= (bytes[blocks + 1] as number) << 8;
  if (tail >= 1) {
    k ^= bytes[blocks] as number;
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
  }
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
