import { displayScalar, isScalar, label } from "./format-value.js";

// A plain-text rendering of any report JSON: scalars as aligned "key  value" lines, objects of
// scalars as two-column tables, lists of rows as tables with one column per field.

type Row = Record<string, unknown>;

function isRowList(v: unknown): v is Row[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "object" && x !== null && !Array.isArray(x));
}

const NUMERIC = /^-?[\d,.]+%?$/;

/** Renders rows as an aligned text table (numbers right-aligned). */
export function textTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  // A column of numbers is right-aligned; a mixed column reads better left-aligned.
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => NUMERIC.test(r[i] ?? "")));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric[i] === true ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function rowsTable(rows: readonly Row[]): string {
  const columns: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  return textTable(
    columns.map(label),
    rows.map((r) => columns.map((c) => displayScalar(r[c]))),
  );
}

function section(title: string, value: unknown, depth: number): string[] {
  if (isScalar(value)) return [`${title}: ${displayScalar(value)}`];
  if (isRowList(value)) return ["", `${title}`, rowsTable(value)];
  if (Array.isArray(value)) return [`${title}: (none)`];
  const obj = value as Row;
  const entries = Object.entries(obj);
  if (entries.length === 0) return [`${title}: (none)`];
  // An object whose values are all rows of one shape (e.g. counts by provider) reads as one table.
  if (entries.every(([, v]) => typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every(isScalar))) {
    return ["", title, rowsTable(entries.map(([k, v]) => ({ key: k, ...(v as Row) })))];
  }
  if (entries.every(([, v]) => isScalar(v))) {
    return [
      "",
      title,
      textTable(
        ["key", "value"],
        entries.map(([k, v]) => [label(k), displayScalar(v)]),
      ),
    ];
  }
  const out = ["", `${"#".repeat(Math.min(depth + 1, 4))} ${title}`];
  const scalars = entries.filter(([, v]) => isScalar(v));
  if (scalars.length > 0)
    out.push(
      textTable(
        ["key", "value"],
        scalars.map(([k, v]) => [label(k), displayScalar(v)]),
      ),
    );
  for (const [k, v] of entries) if (!isScalar(v)) out.push(...section(label(k), v, depth + 1));
  return out;
}

/** The text rendering of one report. */
export function reportTable(title: string, report: unknown): string {
  return section(title, report, 0).join("\n").trim();
}
