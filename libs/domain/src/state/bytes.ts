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

/** Returns a new array sorted byte-wise. */
export function sortUtf8(values: Iterable<string>): string[] {
  return [...values].sort(compareUtf8);
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
