import type { ServiceDefinition, MethodDefinition } from "@grpc/grpc-js";
import { fromBinary, toBinary, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { decodeRequest } from "./request-decoding.js";
import { encodeMessage } from "./message-encoder.js";
import { useBufferTextEncoding } from "./text-encoding.js";

/** grpc-js wants Buffers; protobuf-es produces Uint8Arrays. Wraps without copying. */
export const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Whether the client sends a stream for this method. */
export const clientStreams = (m: DescMethod): boolean => m.methodKind === "client_streaming" || m.methodKind === "bidi_streaming";

/** Whether the server answers with a stream for this method. */
export const serverStreams = (m: DescMethod): boolean => m.methodKind === "server_streaming" || m.methodKind === "bidi_streaming";

/** The grpc-js method path `/<package>.<Service>/<Method>`. */
export const methodPath = (m: DescMethod): string => `/${m.parent.typeName}/${m.name}`;

/** A grpc-js service definition that (de)serializes with the protobuf-es schemas of `service`. */
export function toGrpcServiceDefinition(service: DescService): ServiceDefinition {
  // Every server and client is built from one of these, before it encodes anything.
  useBufferTextEncoding();
  const definition: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const m of service.methods) {
    // Keyed by the proto name so UNIMPLEMENTED answers name the method as clients know it;
    // `originalName` lets grpc-js find handlers and client stubs by their camelCase local name.
    definition[m.name] = {
      path: methodPath(m),
      originalName: m.localName,
      requestStream: clientStreams(m),
      responseStream: serverStreams(m),
      requestSerialize: (msg) => asBuffer(toBinary(m.input, msg as never)),
      requestDeserialize: (bytes: Buffer) => decodeRequest(m.input, bytes),
      // The server adapter hands over responses it has already encoded.
      responseSerialize: (msg) => (msg instanceof Uint8Array ? asBuffer(msg) : asBuffer(encodeMessage(m.output, msg as never))),
      responseDeserialize: (bytes: Buffer) => fromBinary(m.output, bytes),
    };
  }
  return definition as ServiceDefinition;
}
