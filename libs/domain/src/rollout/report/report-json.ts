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

// The reference's Go encoder escapes these in every string, so a name such as `a&b` reads
// `a\u0026b` in both; any JSON reader takes the two spellings as the same text.
const GO_ESCAPED = /[<>&\u2028\u2029]/g;

function quote(text: string): string {
  return JSON.stringify(text).replace(GO_ESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function write(value: unknown, indent: string, step: string): string | undefined {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return quote(value);
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
    if (text !== undefined) members.push(`${quote(key)}${colon}${text}`);
  }
  return members.length === 0 ? "{}" : `{${open}${members.join(sep)}${close}}`;
}

/**
 * A report as JSON text, laid out as `JSON.stringify(value, null, indent)` lays it out, except that
 * bigints are written as exact numbers, a map whose keys include numerals (`"10"`, `"9"`) lists
 * its keys in byte order, as the reference's sorted map keys come, instead of numerals first, and
 * `<`, `>`, `&`, U+2028 and U+2029 in strings are `\u` escapes, as the reference's encoder writes them.
 */
export function reportJson(value: unknown, indent = 0): string {
  return write(value, "", " ".repeat(indent)) ?? "null";
}
