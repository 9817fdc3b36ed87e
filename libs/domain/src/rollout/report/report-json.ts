import { compareText } from "../corpus/order.js";

// A key JavaScript treats as an array index: objects enumerate such keys first, by number, so a
// count map keyed "9" and "10" would print "9" first where the reference's sorted map keys print
// "10" first. Report fields are never such keys, so an object holding one is a map.
function isIndexKey(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}

function keysOf(value: object): string[] {
  const keys = Object.keys(value);
  return keys.some(isIndexKey) ? keys.sort(compareText) : keys;
}

function write(value: unknown, indent: string, step: string): string | undefined {
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = indent + step;
  const open = step === "" ? "" : `\n${inner}`;
  const close = step === "" ? "" : `\n${indent}`;
  const sep = step === "" ? "," : `,\n${inner}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[${open}${value.map((v) => write(v, inner, step) ?? "null").join(sep)}${close}]`;
  }
  const members: string[] = [];
  const colon = step === "" ? ":" : ": ";
  for (const key of keysOf(value)) {
    const text = write((value as Record<string, unknown>)[key], inner, step);
    if (text !== undefined) members.push(`${JSON.stringify(key)}${colon}${text}`);
  }
  return members.length === 0 ? "{}" : `{${open}${members.join(sep)}${close}}`;
}

/**
 * A report as JSON text, laid out as `JSON.stringify(value, null, indent)` lays it out, except that
 * bigints are written as exact numbers and a map whose keys include numerals (`"10"`, `"9"`) lists
 * its keys in byte order, as the reference's sorted map keys come, instead of numerals first.
 */
export function reportJson(value: unknown, indent = 0): string {
  return write(value, "", " ".repeat(indent)) ?? "null";
}
