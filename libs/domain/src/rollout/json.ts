// Lenient field readers: a field of the wrong JSON type reads as absent, so one odd
// field never costs the whole line.

/** A parsed JSON object. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The string at `key`, or "" when absent or not a string. */
export function str(obj: JsonObject, key: string): string {
  const v = obj[key];
  return typeof v === "string" ? v : "";
}

/** The trimmed string at `key`. */
export function trimmed(obj: JsonObject, key: string): string {
  return str(obj, key).trim();
}

/** The first non-blank trimmed string among `keys`. */
export function firstNonBlank(obj: JsonObject, ...keys: string[]): string {
  for (const key of keys) {
    const v = trimmed(obj, key);
    if (v !== "") return v;
  }
  return "";
}

/** A finite number at `key` truncated toward zero, or null. */
export function int(obj: JsonObject, key: string): number | null {
  const v = obj[key];
  if (typeof v !== "number" || !Number.isFinite(v)) return null;
  return Math.trunc(v);
}

/** The object at `key`, or null. */
export function obj(o: JsonObject, key: string): JsonObject | null {
  const v = o[key];
  return isObject(v) ? v : null;
}

/** Parses text as JSON, returning undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
