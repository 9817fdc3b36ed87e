// A cache entry is read back from disk, where anything may have happened to it since it was
// written: an entry that is whole JSON, with the right versions, may still have lost a member or
// had one changed (a flipped bit in a key, a hand edit). Summing such an entry would fail in the
// middle of the scan, or add text to a count, on every later scan until the cache is deleted.
// So an entry is checked against the shape of an empty one before it is reused.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value);
}

// Inside a map's value: counts, absent readings (null, e.g. a session's first time) and nested maps.
function isNestedValue(value: unknown): boolean {
  if (value === null || isCount(value)) return true;
  return isRecord(value) && Object.values(value).every(isNestedValue);
}

// A map's value (the template has none to compare with): a count, a sample of counts, or an
// object of counts such as a tool's or a provider version's tallies.
function isMapValue(value: unknown): boolean {
  if (isCount(value)) return true;
  if (Array.isArray(value)) return value.every(isCount);
  return isRecord(value) && Object.values(value).every(isNestedValue);
}

/**
 * True when `value` has the shape of `template`: every member the template has, of the same
 * type; a number finite. An empty object in the template is a map, whose values must be counts,
 * samples of counts or objects of counts; an empty array a list of numbers or of rows (objects).
 */
export function conformsTo(value: unknown, template: unknown): boolean {
  if (typeof template === "number") return isCount(value);
  if (typeof template === "string" || typeof template === "boolean") return typeof value === typeof template;
  if (Array.isArray(template)) return Array.isArray(value) && value.every((v) => isCount(v) || isRecord(v));
  if (!isRecord(template) || !isRecord(value)) return template === value;
  const members = Object.entries(template);
  if (members.length === 0) return Object.values(value).every(isMapValue);
  return members.every(([key, member]) => conformsTo(value[key], member));
}
