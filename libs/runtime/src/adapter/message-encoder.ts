/**
 * Binary encoding of protobuf-es messages, byte for byte what `toBinary` writes, at a fraction of
 * its allocations. `toBinary` wraps every message in a reflection object, collects varints in JS
 * arrays and copies every nested message and scalar chunk into a fresh Uint8Array as it goes up;
 * this encoder measures the message once (sizes of nested messages and strings in visit order),
 * then writes it into one buffer of the exact size. Plans per message type are built once.
 * With `sortMapKeys` map entries go out in key order, the canonical form request fingerprints use.
 */

import type { DescMessage } from "@bufbuild/protobuf";
import { EncodeError, type Fields } from "./message-plan.js";
import { messageBodySize } from "./message-size.js";
import { Writer } from "./message-writer.js";

export { EncodeError };

/** Options of {@link encodeMessage}. */
export interface EncodeOptions {
  /** Writes map entries in key order (array-index keys numerically first, then the others sorted) instead of insertion order. */
  readonly sortMapKeys?: boolean;
}

/**
 * `message` of type `desc` in protobuf binary form: the bytes `toBinary` writes (maps in key order
 * with `sortMapKeys`). `message` may also be an init shape: it encodes as the message `create` builds from it.
 * Small results share their ArrayBuffer with other small buffers (Node's pool).
 */
export function encodeMessage(desc: DescMessage, message: object, options: EncodeOptions = {}): Uint8Array {
  const sort = options.sortMapKeys === true;
  const lengths: number[] = [];
  const size = messageBodySize(desc, message as Fields, lengths, sort);
  // A slice of Node's shared pool when small: a fresh ArrayBuffer per message costs ten times as
  // much. Callers that hand the bytes to another thread copy them first.
  const buf = Buffer.allocUnsafe(size);
  const writer = new Writer(buf, lengths, sort);
  writer.message(desc, message as Fields);
  if (writer.pos !== size) throw new EncodeError(`encoded ${writer.pos} bytes of ${desc.typeName}, measured ${size}`);
  return new Uint8Array(buf.buffer, buf.byteOffset, size);
}
