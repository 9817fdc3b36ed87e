/**
 * Byte-wise UTF-8 string ordering. JavaScript compares UTF-16 code units, which disagrees
 * with UTF-8 byte order for characters above U+FFFF versus U+E000..U+FFFF; peers written in
 * other languages sort by bytes, so every ordered list here uses this comparator.
 */

function weight(unit: number): number {
  // Surrogates (astral characters) must sort after U+E000..U+FFFF, as their UTF-8 bytes do.
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/** Compares two strings by their UTF-8 bytes; returns -1, 0 or 1. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return weight(x) < weight(y) ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

// Lists up to this long are sorted by insertion: Array.prototype.sort allocates scratch space on
// every call, and most lists sorted per mutation (the nodes a delta touches) hold one or two ids.
const INSERTION_SORT_MAX = 16;

/** Returns a new array sorted byte-wise. */
export function sortUtf8(values: Iterable<string>): string[] {
  const out = [...values];
  if (out.length > INSERTION_SORT_MAX) return out.sort(compareUtf8);
  // Stable, as Array.prototype.sort is, so the order is the same; anything but strings is left to it.
  for (let i = 0; i < out.length; i++) if (typeof out[i] !== "string") return out.sort(compareUtf8);
  for (let i = 1; i < out.length; i++) {
    const x = out[i] as string;
    let j = i - 1;
    while (j >= 0 && compareUtf8(out[j] as string, x) > 0) {
      out[j + 1] = out[j] as string;
      j--;
    }
    out[j + 1] = x;
  }
  return out;
}

/** Number of bytes of the UTF-8 encoding of `s`. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
