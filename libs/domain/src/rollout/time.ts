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

/** Parses an RFC 3339 timestamp to Unix milliseconds; null when absent, malformed or impossible. */
export function parseTimestamp(raw: string): number | null {
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
