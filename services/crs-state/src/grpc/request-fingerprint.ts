/**
 * The idempotency fingerprint of a mutation request: SHA-256 over the method name and the
 * request in a canonical binary encoding. Protobuf binary encoding is not canonical for maps (a
 * map's entries go out in whatever order the sender built them), so map entries are sorted by key
 * first: a retry listing the same entries in another order is the same request. A field mask's
 * paths are a set (an update reads the same fields whatever their order), so they are sorted and
 * a repeated path counted once.
 */

import { createHash } from "node:crypto";
import { clone, toBinary, type DescField, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import type { MutationOptions } from "@crs/contracts/gen/crs/state/v1/common_pb";

type Fields = Record<string, unknown>;

const FIELD_MASK = "google.protobuf.FieldMask";

// A mask's paths in order, each once.
function pathSet(paths: readonly string[]): string[] {
  return [...new Set(paths)].sort();
}

function pathsInOrder(paths: readonly string[]): boolean {
  for (let i = 1; i < paths.length; i++) if ((paths[i - 1] as string) >= (paths[i] as string)) return false;
  return true;
}

function sortedMap(map: Fields, valueMessage: DescMessage | undefined): Fields {
  const out: Fields = {};
  for (const key of Object.keys(map).sort()) {
    const value = map[key];
    out[key] = valueMessage === undefined ? value : canonical(valueMessage, value as Fields);
  }
  return out;
}

function canonicalField(field: DescField, value: unknown): unknown {
  switch (field.fieldKind) {
    case "map":
      return sortedMap(value as Fields, field.mapKind === "message" ? field.message : undefined);
    case "list":
      return field.listKind === "message" ? (value as Fields[]).map((v) => canonical(field.message, v)) : value;
    case "message":
      return value === undefined ? value : canonical(field.message, value as Fields);
    default:
      return value;
  }
}

// Rebuilds a message (already a private copy) with every map, at any depth, in key order, and
// every field mask's paths as a sorted set.
function canonical(desc: DescMessage, msg: Fields): Fields {
  if (desc.typeName === FIELD_MASK) {
    msg["paths"] = pathSet(msg["paths"] as string[]);
    return msg;
  }
  for (const field of desc.fields) {
    if (field.oneof !== undefined) {
      const selected = msg[field.oneof.localName] as { case: string | undefined; value?: unknown };
      if (selected.case === field.localName) selected.value = canonicalField(field, selected.value);
      continue;
    }
    msg[field.localName] = canonicalField(field, msg[field.localName]);
  }
  return msg;
}

// Whether a message of this type can hold a map or a field mask at any depth; only those parts are searched.
const holdsMaps = new Map<DescMessage, boolean>();
function reachesMap(desc: DescMessage): boolean {
  const known = holdsMaps.get(desc);
  if (known !== undefined) return known;
  if (desc.typeName === FIELD_MASK) {
    holdsMaps.set(desc, true);
    return true;
  }
  holdsMaps.set(desc, false); // a recursive type reaches a map through its other fields, if at all
  const found = desc.fields.some(
    (f) =>
      f.fieldKind === "map" ||
      ((f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) && reachesMap(f.message)),
  );
  holdsMaps.set(desc, found);
  return found;
}

function keysInOrder(map: Fields): boolean {
  let previous: string | undefined;
  for (const key of Object.keys(map)) {
    if (previous !== undefined && previous > key) return false;
    previous = key;
  }
  return true;
}

function fieldInOrder(field: DescField, value: unknown): boolean {
  switch (field.fieldKind) {
    case "map":
      if (!keysInOrder(value as Fields)) return false;
      return (
        field.mapKind !== "message" ||
        !reachesMap(field.message) ||
        Object.values(value as Fields).every((v) => inOrder(field.message, v as Fields))
      );
    case "list":
      return field.listKind !== "message" || !reachesMap(field.message) || (value as Fields[]).every((v) => inOrder(field.message, v));
    case "message":
      return value === undefined || !reachesMap(field.message) || inOrder(field.message, value as Fields);
    default:
      return true;
  }
}

// Whether every map (and mask) in `msg` already lists its keys in the order `canonical` would give them.
function inOrder(desc: DescMessage, msg: Fields): boolean {
  if (!reachesMap(desc)) return true;
  if (desc.typeName === FIELD_MASK) return pathsInOrder((msg as { paths: string[] }).paths);
  for (const field of desc.fields) {
    if (field.oneof !== undefined) {
      const selected = msg[field.oneof.localName] as { case: string | undefined; value?: unknown };
      if (selected.case === field.localName && !fieldInOrder(field, selected.value)) return false;
      continue;
    }
    if (!fieldInOrder(field, msg[field.localName])) return false;
  }
  return true;
}

/** SHA-256 of `method` and `request` with its request id cleared and its maps in key order. */
export function requestFingerprint<Req extends DescMessage>(
  method: string,
  schema: Req,
  request: MessageShape<Req> & { readonly options?: MutationOptions | undefined },
): Uint8Array {
  return createHash("sha256").update(method).update(canonicalBytes(schema, request)).digest();
}

function canonicalBytes<Req extends DescMessage>(
  schema: Req,
  request: MessageShape<Req> & { readonly options?: MutationOptions | undefined },
) {
  const options = request.options;
  // Maps already in key order (empty ones, usually) need no rebuilt copy: the request itself is
  // encoded, with its id cleared for the moment, which costs far less than a clone.
  if (inOrder(schema, request as unknown as Fields)) {
    if (options === undefined || options.requestId === "") return toBinary(schema, request);
    const requestId = options.requestId;
    options.requestId = "";
    try {
      return toBinary(schema, request);
    } finally {
      options.requestId = requestId;
    }
  }
  const copy = clone(schema, request) as MessageShape<Req> & { options?: MutationOptions };
  if (copy.options !== undefined) copy.options.requestId = "";
  return toBinary(schema, canonical(schema, copy as unknown as Fields) as MessageShape<Req>);
}
