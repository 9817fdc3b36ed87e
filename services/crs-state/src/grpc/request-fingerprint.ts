/**
 * The idempotency fingerprint of a mutation request: SHA-256 over the method name and the
 * request in a canonical binary encoding. Protobuf binary encoding is not canonical for maps (a
 * map's entries go out in whatever order the sender built them), so map entries are written in
 * key order at any depth: a retry listing the same entries in another order is the same request.
 */

import { hash } from "node:crypto";
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import { encodeMessage } from "@crs/runtime";
import type { MutationOptions } from "@crs/contracts/gen/crs/state/v1/common_pb";

/** SHA-256 of `method` and `request` with its request id cleared and its maps in key order. */
export function requestFingerprint<Req extends DescMessage>(
  method: string,
  schema: Req,
  request: MessageShape<Req> & { readonly options?: MutationOptions | undefined },
): Uint8Array {
  const body = canonicalBytes(schema, request);
  // One buffer through the one-shot hash: a Hash object per call costs twice as much.
  const input = Buffer.allocUnsafe(Buffer.byteLength(method) + body.byteLength);
  input.set(body, input.write(method, 0, "utf8"));
  return new Uint8Array(hash("sha256", input, "buffer"));
}

// The request id is cleared for the moment of encoding, which costs far less than a copy.
function canonicalBytes<Req extends DescMessage>(
  schema: Req,
  request: MessageShape<Req> & { readonly options?: MutationOptions | undefined },
): Uint8Array {
  const options = request.options;
  if (options === undefined || options.requestId === "") return encodeMessage(schema, request, { sortMapKeys: true });
  const requestId = options.requestId;
  options.requestId = "";
  try {
    return encodeMessage(schema, request, { sortMapKeys: true });
  } finally {
    options.requestId = requestId;
  }
}
