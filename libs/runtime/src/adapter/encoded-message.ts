import type { DescMessage } from "@bufbuild/protobuf";

/**
 * A response already in wire form. A handler that keeps its answers encoded (for idempotent
 * replay, say) returns one so the adapter sends the bytes as they are instead of decoding them
 * into a message only to encode that message again.
 */
export class EncodedMessage<Desc extends DescMessage = DescMessage> {
  constructor(
    /** The message type the bytes encode; the adapter refuses it for a method of another output type. */
    readonly schema: Desc,
    /** The encoded message. */
    readonly bytes: Uint8Array,
  ) {}
}

/** Wraps `bytes`, an encoded `schema` message, for a handler to return as its answer. */
export function encodedMessage<Desc extends DescMessage>(schema: Desc, bytes: Uint8Array): EncodedMessage<Desc> {
  return new EncodedMessage(schema, bytes);
}
