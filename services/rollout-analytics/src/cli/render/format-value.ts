// Display rounding for the table and HTML formats; JSON output never goes through here.

/** A number for reading: integers with thousands separators, fractions to at most 3 significant decimals. */
export function displayNumber(n: number): string {
  if (Number.isInteger(n)) return n.toLocaleString("en-US");
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 1 : abs >= 1 ? 2 : 4;
  return n.toLocaleString("en-US", { maximumFractionDigits: digits });
}

/** Any scalar for a table cell. */
export function displayScalar(v: unknown): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "number") return displayNumber(v);
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v) && v.length === 0) return "none";
  if (Array.isArray(v) && v.every((x) => typeof x !== "object" || x === null)) return v.map(displayScalar).join(", ");
  return JSON.stringify(v);
}

/** True for values shown in a single cell. */
export function isScalar(v: unknown): boolean {
  return v === null || typeof v !== "object" || (Array.isArray(v) && v.every((x) => typeof x !== "object" || x === null));
}

/** Turns `snake_case` keys into words. */
export function label(key: string): string {
  return key.replaceAll("_", " ");
}
