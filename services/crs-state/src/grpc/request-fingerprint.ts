/**
 * The idempotency fingerprint of a mutation request: SHA-256 over the method name and the
 * request in a canonical binary encoding. Protobuf binary encoding is not canonical for maps (a
 * map's entries go out in whatever order the sender built them), so map entries are sorted by key
 * first: a retry listing the same entries in another order is the same request.
 */

import { createHash } from "node:crypto";
import { clone, toBinary, type DescField, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import type { MutationOptions } from "@crs/contracts/gen/crs/state/v1/common_pb";

type Fields = Record<string, unknown>;

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

// Rebuilds a message (already a private copy) with every map, at any depth, in key order.
function canonical(desc: DescMessage, msg: Fields): Fields {
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

/** SHA-256 of `method` and `request` with its request id cleared and its maps in key order. */
export function requestFingerprint<Req extends DescMessage>(
  method: string,
  schema: Req,
  request: MessageShape<Req> & { readonly options?: MutationOptions | undefined },
): Uint8Array {
  const copy = clone(schema, request) as MessageShape<Req> & { options?: MutationOptions };
  if (copy.options !== undefined) copy.options.requestId = "";
  const bytes = toBinary(schema, canonical(schema, copy as unknown as Fields) as MessageShape<Req>);
  return createHash("sha256").update(method).update(bytes).digest();
}
