// The reference reads line times with Go's `time.Parse(time.RFC3339, …)`; this accepts exactly
// what that accepts: a 4-digit year 0000–9999, a day that exists in its month, hour 0–23 (one or
// two digits), minute and second 00–59 (no leap second), an optional fraction after `.` or `,`,
// and `Z` or an offset `±hh:mm` with hh ≤ 24 and mm ≤ 60. `T` and `Z` are upper case only.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

const MS_PER_DAY = 86_400_000;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// Days from 1970-01-01 to a proleptic Gregorian date, by whole-number arithmetic: `Date.UTC`
// would read years 0–99 as 1900–1999 and roll impossible dates over instead of refusing them.
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

// The value of `length` ASCII digits from `start`, or -1 when one of them is not a digit.
function digitsAt(bytes: Uint8Array, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i += 1) {
    const d = (bytes[i] ?? 0) - 0x30;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

// The form producers write, `2026-02-23T12:19:42.561Z`, read from its bytes `bytes[start..end)`:
// every line carries one, and the regular expression with its match array cost more than the
// rest of the line's fields. Undefined hands any other form to the general reader.
function utcFormAt(bytes: Uint8Array, start: number, end: number): number | null | undefined {
  const n = end - start;
  if (n < 20 || bytes[end - 1] !== 0x5a) return undefined;
  if (bytes[start + 4] !== 0x2d || bytes[start + 7] !== 0x2d || bytes[start + 10] !== 0x54) return undefined;
  if (bytes[start + 13] !== 0x3a || bytes[start + 16] !== 0x3a) return undefined;
  const year = digitsAt(bytes, start, 4);
  const month = digitsAt(bytes, start + 5, 2);
  const day = digitsAt(bytes, start + 8, 2);
  const hour = digitsAt(bytes, start + 11, 2);
  const minute = digitsAt(bytes, start + 14, 2);
  const second = digitsAt(bytes, start + 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  let ms = 0;
  if (n > 20) {
    const sep = bytes[start + 19];
    if ((sep !== 0x2e && sep !== 0x2c) || n === 21) return undefined;
    for (let i = start + 20; i < end - 1; i += 1) if (digitsAt(bytes, i, 1) < 0) return undefined;
    for (let i = start + 20; i < start + 23; i += 1) ms = ms * 10 + (i < end - 1 ? (bytes[i] ?? 0) - 0x30 : 0);
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return daysFromCivil(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + ms;
}

// A timestamp's text as bytes, for the form above: one byte per character, and any character
// past ASCII (never part of that form) as a byte that is no digit.
let textBytes = new Uint8Array(64);
function utcForm(raw: string): number | null | undefined {
  const n = raw.length;
  if (n > textBytes.length) textBytes = new Uint8Array(n * 2);
  for (let i = 0; i < n; i += 1) {
    const c = raw.charCodeAt(i);
    textBytes[i] = c < 0x80 ? c : 0xff;
  }
  return utcFormAt(textBytes, 0, n);
}

const asciiText = new TextDecoder();

/**
 * {@link parseTimestamp} of the text of `bytes[start..end)`, which holds printable ASCII alone:
 * the producer's form read in place, any other form (of any length) as text.
 */
export function parseTimestampAt(bytes: Uint8Array, start: number, end: number): number | null {
  const utc = utcFormAt(bytes, start, end);
  return utc !== undefined ? utc : parseTimestamp(asciiText.decode(bytes.subarray(start, end)));
}

/** Parses an RFC 3339 timestamp to Unix milliseconds; null when absent, malformed or impossible. */
export function parseTimestamp(raw: string): number | null {
  const utc = utcForm(raw);
  if (utc !== undefined) return utc;
  const m = RFC3339.exec(raw);
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const [, , , , , , , frac, sign, oh, om] = m;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetHours = Number(oh ?? 0);
  const offsetMinutes = Number(om ?? 0);
  if (offsetHours > 24 || offsetMinutes > 60) return null;
  // Sub-millisecond digits are dropped: every duration here is reported in whole ms.
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, "0"));
  const offsetMs = (sign === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return daysFromCivil(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + ms - offsetMs;
}
