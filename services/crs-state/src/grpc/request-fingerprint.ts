/**
 * The idempotency fingerprint of a mutation request: SHA-256 over the method name and the
 * request in a canonical binary encoding. Protobuf binary encoding is not canonical for maps (a
 * map's entries go out in whatever order the sender built them), so map entries are written in
 * key order at any depth: a retry listing the same entries in another order is the same request.
 * A field mask's paths are a set (an update reads the same fields whatever their order), so they
 * are sorted and a repeated path counted once.
 */

import { hash } from "node:crypto";
import type { DescField, DescMessage, MessageShape } from "@bufbuild/protobuf";
import { encodeMessage } from "@crs/runtime";
import type { MutationOptions } from "@crs/contracts/gen/crs/state/v1/common_pb";

type Fields = Record<string, unknown>;

const FIELD_MASK = "google.protobuf.FieldMask";

// Whether a message of this type can hold a field mask at any depth; only those parts are searched.
const holdsMasks = new Map<DescMessage, boolean>();
function reachesMask(desc: DescMessage): boolean {
  const known = holdsMasks.get(desc);
  if (known !== undefined) return known;
  holdsMasks.set(desc, desc.typeName === FIELD_MASK); // a recursive type reaches a mask through its other fields, if at all
  const found =
    desc.typeName === FIELD_MASK || desc.fields.some((f) => nestedType(f) !== undefined && reachesMask(nestedType(f) as DescMessage));
  holdsMasks.set(desc, found);
  return found;
}

function nestedType(f: DescField): DescMessage | undefined {
  if (f.fieldKind === "message") return f.message;
  if (f.fieldKind === "list" && f.listKind === "message") return f.message;
  if (f.fieldKind === "map" && f.mapKind === "message") return f.message;
  return undefined;
}

// Gives every field mask in `msg` its paths as a sorted set, for the moment of encoding; `undo`
// collects what puts the request back as it came.
function canonicalMasks(desc: DescMessage, msg: Fields, undo: (() => void)[]): void {
  if (!reachesMask(desc)) return;
  if (desc.typeName === FIELD_MASK) {
    const paths = msg["paths"] as string[];
    msg["paths"] = [...new Set(paths)].sort();
    undo.push(() => (msg["paths"] = paths));
    return;
  }
  for (const field of desc.fields) {
    const type = nestedType(field);
    if (type === undefined || !reachesMask(type)) continue;
    let value = msg[field.localName];
    if (field.oneof !== undefined) {
      const selected = msg[field.oneof.localName] as { case: string | undefined; value?: unknown };
      value = selected.case === field.localName ? selected.value : undefined;
    }
    if (value === undefined) continue;
    if (field.fieldKind === "message") canonicalMasks(type, value as Fields, undo);
    else
      for (const item of field.fieldKind === "list" ? (value as Fields[]) : Object.values(value as Record<string, Fields>))
        canonicalMasks(type, item, undo);
  }
}

/**
 * SHA-256 of `method` and `request` with its request id cleared, its maps in key order and its
 * masks' paths as sorted sets; in hex, the form the request table and the journal keep.
 */
export function requestFingerprint<Req extends DescMessage>(
  method: string,
  schema: Req,
  request: MessageShape<Req> & { readonly options?: MutationOptions | undefined },
): string {
  const body = canonicalBytes(schema, request);
  // One buffer through the one-shot hash: a Hash object per call costs twice as much. Hex straight
  // from the hash: a digest as bytes gets an ArrayBuffer of its own, and was turned into hex anyway.
  const input = Buffer.allocUnsafe(Buffer.byteLength(method) + body.byteLength);
  input.set(body, input.write(method, 0, "utf8"));
  return hash("sha256", input, "hex");
}

// The request id is cleared, and masks made sets, for the moment of encoding: far cheaper than a copy.
function canonicalBytes<Req extends DescMessage>(
  schema: Req,
  request: MessageShape<Req> & { readonly options?: MutationOptions | undefined },
): Uint8Array {
  const undo: (() => void)[] = [];
  const options = request.options;
  if (options !== undefined && options.requestId !== "") {
    const requestId = options.requestId;
    options.requestId = "";
    undo.push(() => (options.requestId = requestId));
  }
  canonicalMasks(schema, request as unknown as Fields, undo);
  try {
    return encodeMessage(schema, request, { sortMapKeys: true });
  } finally {
    for (const restore of undo) restore();
  }
}
