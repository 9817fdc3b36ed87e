const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Parses an RFC 3339 timestamp to Unix milliseconds; null when absent or malformed. */
export function parseTimestamp(raw: string): number | null {
  const m = RFC3339.exec(raw.length > 0 && raw.charCodeAt(0) <= 32 ? raw.trim() : raw);
  if (m === null) return null;
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return null;
  // Sub-millisecond digits are dropped: every duration here is reported in whole ms.
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, "0"));
  const offset = sign === undefined ? 0 : (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000;
  const utc = Date.UTC(Number(y), month - 1, day, Number(h), Number(mi), Number(s), ms) - offset;
  return Number.isFinite(utc) ? utc : null;
}
