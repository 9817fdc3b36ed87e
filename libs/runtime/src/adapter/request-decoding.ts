import { status } from "@grpc/grpc-js";
import type { DescMessage } from "@bufbuild/protobuf";
import { RuntimeRpcError } from "../errors.js";
import { decodeMessage } from "./message-decoder.js";

/**
 * A request whose bytes are not a valid message of its type. grpc-js answers a decoder that throws
 * with a bare INTERNAL before any handler runs; handing this over instead lets the adapter answer
 * INVALID_ARGUMENT with ErrorInfo, logged and counted like any other failure.
 */
export class MalformedRequest {
  constructor(
    readonly typeName: string,
    readonly cause: unknown,
  ) {}
}

/** Decodes one request message (the message `fromBinary` returns), or describes why it cannot be decoded. */
export function decodeRequest(schema: DescMessage, bytes: Uint8Array): unknown {
  try {
    return decodeMessage(schema, bytes);
  } catch (cause) {
    return new MalformedRequest(schema.typeName, cause);
  }
}

/** Returns `request` when it decoded; otherwise throws INVALID_ARGUMENT saying what was wrong with it. */
export function requireDecoded(request: unknown): unknown {
  if (!(request instanceof MalformedRequest)) return request;
  const why = request.cause instanceof Error ? request.cause.message : String(request.cause);
  throw new RuntimeRpcError(
    status.INVALID_ARGUMENT,
    "INVALID_ARGUMENT",
    `the request is not a valid ${request.typeName} message: ${why}`,
    {},
    { cause: request.cause },
  );
}
