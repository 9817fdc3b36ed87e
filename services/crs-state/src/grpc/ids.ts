import { invalidArgument, limitExceeded } from "@crs/runtime";

// One alphabet for every id and entry key (stated in proto/crs/state/v1/common.proto): safe in
// storage keys, file names and subjects, and `:` so derived node ids can embed other ids.
const ID_ALPHABET = /^[A-Za-z0-9._:-]+$/;

/** Longest project, session, checkpoint or request id. */
export const MAX_ID_LENGTH = 128;
/** Longest node id or other entry key (derived node ids embed a session id). */
export const MAX_KEY_LENGTH = 512;
/** Most ids a request may list in one field. */
export const MAX_LIST_IDS = 1000;

function check(value: string, field: string, max: number): string {
  if (value === "") throw invalidArgument(field, "is required");
  if (value.length > max || !ID_ALPHABET.test(value) || value === "." || value === "..") {
    throw invalidArgument(field, `must be 1-${max} characters of [A-Za-z0-9._:-] and not '.' or '..'`);
  }
  return value;
}

/** A project, session or checkpoint id; INVALID_ARGUMENT naming `field` otherwise. */
export function requireId(value: string, field: string): string {
  return check(value, field, MAX_ID_LENGTH);
}

/** An id that may be empty (meaning "none"), else valid like {@link requireId}. */
export function optionalId(value: string, field: string): string {
  return value === "" ? value : check(value, field, MAX_ID_LENGTH);
}

/** A node id or other entry key; INVALID_ARGUMENT naming `field` otherwise. */
export function requireKey(value: string, field: string): string {
  return check(value, field, MAX_KEY_LENGTH);
}

/**
 * A part of a derived node id, `part` in `derived(part)`: empty is left to the engine's own check;
 * otherwise of the key alphabet and short enough that the derived id is a valid key too, so what
 * is stored under it can be read back by id.
 */
export function optionalKeyPart(part: string, field: string, derived: (part: string) => string): string {
  return part === "" ? part : check(part, field, MAX_KEY_LENGTH - derived("").length);
}

/** An entry key that may be empty (meaning "none"). */
export function optionalKey(value: string, field: string): string {
  return value === "" ? value : check(value, field, MAX_KEY_LENGTH);
}

/** Fails with LIMIT_EXCEEDED when `list` has more than `max` entries. */
export function requireAtMost<T>(list: readonly T[], max: number, field: string): readonly T[] {
  if (list.length > max) throw limitExceeded(field, max, `has ${list.length} entries; at most ${max} are accepted`);
  return list;
}

/** A list of entry keys: each valid, at most {@link MAX_LIST_IDS}, at least one. */
export function requireKeys(list: readonly string[], field: string): readonly string[] {
  if (list.length === 0) throw invalidArgument(field, "needs at least one entry");
  requireAtMost(list, MAX_LIST_IDS, field);
  list.forEach((k, i) => requireKey(k, `${field}[${i}]`));
  return list;
}

/** Text fields that are not ids: at most `max` UTF-8 bytes. */
export function requireTextAtMost(value: string, maxBytes: number, field: string): string {
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > maxBytes) throw limitExceeded(field, maxBytes, `is ${bytes} bytes; at most ${maxBytes} are accepted`);
  return value;
}

/** A string map of at most `maxEntries` entries, keys 1-256 bytes, values at most 4096 bytes. */
export function requireMetadata(map: Readonly<Record<string, string>>, maxEntries: number, field: string): Record<string, string> {
  const entries = Object.entries(map);
  if (entries.length > maxEntries)
    throw limitExceeded(field, maxEntries, `has ${entries.length} entries; at most ${maxEntries} are accepted`);
  for (const [k, v] of entries) {
    if (k === "") throw invalidArgument(field, "keys must not be empty");
    // An entry is named as a map key (`metadata["k"]`), as every field path names one.
    const at = `${field}[${JSON.stringify(k)}]`;
    requireTextAtMost(k, 256, at);
    requireTextAtMost(v, 4096, at);
  }
  return { ...map };
}
