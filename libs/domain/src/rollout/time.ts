const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp to Unix milliseconds; null when absent or malformed. */
export function parseTimestamp(raw: string): number | null {
  const m = RFC3339.exec(raw.trim());
  if (m === null) return null;
  // Sub-millisecond digits are dropped: every duration here is reported in whole ms.
  const frac = m[3] === undefined ? "" : m[3].slice(0, 4);
  const zone = m[4] === "z" ? "Z" : m[4];
  const ms = Date.parse(`${m[1]}T${m[2]}${frac}${zone}`);
  return Number.isFinite(ms) ? ms : null;
}
